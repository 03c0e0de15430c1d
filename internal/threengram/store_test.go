package threengram

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/assets"
)

// openSeeded opens a fresh store in a temp dir with the bundled corpus.
func openSeeded(t *testing.T, opts *StoreOptions) *Store {
	t.Helper()
	s, err := OpenStore(filepath.Join(t.TempDir(), "tg.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSeedCorpusShape(t *testing.T) {
	s := openSeeded(t, nil)
	ctx := context.Background()
	var total, tenants, long, types, successors int
	row := s.db.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT tenant), sum(length(content) > 8192),
		count(DISTINCT memory_type), count(superseded_by) FROM memories`)
	if err := row.Scan(&total, &tenants, &long, &types, &successors); err != nil {
		t.Fatal(err)
	}
	if total < 300 || tenants < 3 || long == 0 || types < 5 || successors == 0 {
		t.Errorf("corpus: %d memories, %d tenants, %d over 8 KiB, %d types, %d revised; want >=300, >=3, >0, >=5, >0",
			total, tenants, long, types, successors)
	}
	// A second seed on a loaded store is a no-op: "loaded on first run".
	n, err := s.Seed(ctx, assets.Corpus)
	if err != nil || n != 0 {
		t.Errorf("second Seed = %d, %v; want 0, nil", n, err)
	}
}

func TestSeedRejectsMalformedCorpus(t *testing.T) {
	s, err := OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Seed(context.Background(), []byte(`[{"id":`)); err == nil {
		t.Fatal("Seed of a truncated corpus succeeded")
	}
}

func firstID(t *testing.T, s *Store, tenant string) string {
	t.Helper()
	var id string
	if err := s.db.QueryRow(`SELECT id FROM memories WHERE tenant = ? AND valid_to IS NULL ORDER BY id LIMIT 1`, tenant).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestGetIsTenantScoped(t *testing.T) {
	s := openSeeded(t, nil)
	ctx := context.Background()
	id := firstID(t, s, "acme")
	if _, err := s.Get(ctx, "acme", id); err != nil {
		t.Fatalf("owner's Get: %v", err)
	}
	if _, err := s.Get(ctx, "globex", id); !errors.Is(err, ErrNotFound) {
		t.Errorf("other tenant's Get = %v; want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, "acme", "mnosuchid"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing Get = %v; want ErrNotFound", err)
	}
}

func TestIDsWithPrefixOnlyOwnIDs(t *testing.T) {
	s := openSeeded(t, nil)
	ctx := context.Background()
	ids, more, err := s.IDsWithPrefix(ctx, "acme", "m", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 100 || !more {
		t.Errorf("got %d ids, more=%v; want 100 and more (acme has over 100)", len(ids), more)
	}
	for _, id := range ids {
		if _, err := s.Get(ctx, "acme", id); err != nil {
			t.Errorf("completion offered %s, which acme cannot read: %v", id, err)
		}
	}
	// A prefix with LIKE wildcards is taken literally.
	if ids, _, _ := s.IDsWithPrefix(ctx, "acme", "%", 100); len(ids) != 0 {
		t.Errorf("prefix %% matched %d ids", len(ids))
	}
}

func TestReviseCreatesSuccessorAndNeverEdits(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := openSeeded(t, &StoreOptions{Now: func() time.Time { return now }})
	ctx := context.Background()
	id := firstID(t, s, "acme")
	before, _ := s.Get(ctx, "acme", id)
	succ, err := s.Revise(ctx, "acme", id, "new words")
	if err != nil {
		t.Fatal(err)
	}
	if succ.ID == id || succ.Content != "new words" || succ.Topic != before.Topic {
		t.Errorf("successor = %+v", succ)
	}
	after, _ := s.Get(ctx, "acme", id)
	if after.Content != before.Content || after.Topic != before.Topic || strings.Join(after.Tags, ",") != strings.Join(before.Tags, ",") {
		t.Errorf("predecessor's substance changed: before %+v after %+v", before, after)
	}
	if !after.ValidTo.Equal(now) || after.SupersededBy != succ.ID {
		t.Errorf("predecessor validTo=%v supersededBy=%q; want %v, %q", after.ValidTo, after.SupersededBy, now, succ.ID)
	}
	if _, err := s.Revise(ctx, "acme", id, "again"); err == nil {
		t.Error("revising a superseded memory succeeded")
	}
	if _, err := s.Revise(ctx, "globex", succ.ID, "theft"); !errors.Is(err, ErrNotFound) {
		t.Errorf("cross-tenant revise = %v; want ErrNotFound", err)
	}
}

// signIn gives tenant an OAuth grant through the store, as the token
// endpoint would after an approval: its access and refresh tokens, and the
// client they were issued to.
func signIn(t *testing.T, s *Store, tenant string) (access, refresh string) {
	t.Helper()
	ctx := context.Background()
	code, err := s.saveCode(ctx, authCode{Tenant: tenant, ClientID: "tgcl_test", RedirectURI: "http://127.0.0.1/cb",
		Scopes: []string{ScopeRead}, Resource: "http://127.0.0.1:1/mcp", Refresh: true}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	issued, err := s.exchangeCode(ctx, code, "tgcl_test", func(authCode) error { return nil }, lifetimes{time.Hour, time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return issued.Access, issued.Refresh
}

// pendingCode saves an authorization code for tenant that is not
// exchanged yet.
func pendingCode(t *testing.T, s *Store, tenant string) string {
	t.Helper()
	code, err := s.saveCode(context.Background(), authCode{Tenant: tenant, ClientID: "tgcl_test",
		RedirectURI: "http://127.0.0.1/cb", Scopes: []string{ScopeRead}, Resource: "r"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func refreshWith(s *Store, refresh string) error {
	_, err := s.refresh(context.Background(), refresh, "tgcl_test",
		func(g grantInfo) ([]string, error) { return g.Scopes, nil }, lifetimes{time.Hour, time.Hour})
	return err
}

func exchangeWith(s *Store, code string) error {
	_, err := s.exchangeCode(context.Background(), code, "tgcl_test", func(authCode) error { return nil }, lifetimes{time.Hour, time.Hour})
	return err
}

func isInvalidGrant(err error) bool {
	var oe *oauthError
	return errors.As(err, &oe) && oe.Code == "invalid_grant"
}

func TestEraseOverwritesAndRevokesTogether(t *testing.T) {
	s := openSeeded(t, nil)
	ctx := context.Background()
	tok, err := s.IssueToken(ctx, "acme", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.IssueToken(ctx, "globex", []string{ScopeRead})
	access, refresh := signIn(t, s, "acme")
	code := pendingCode(t, s, "acme")
	otherAccess, otherRefresh := signIn(t, s, "globex")
	e, err := s.Erase(ctx, "acme")
	if err != nil || e.Memories == 0 || e.Tokens != 1 || e.Grants != 1 {
		t.Fatalf("Erase = %+v, %v; want memories, 1 token, 1 grant", e, err)
	}
	m, _ := s.Get(ctx, "acme", firstID(t, s, "acme"))
	if m.Content != Erased || m.Topic != Erased || len(m.Tags) != 1 || m.Tags[0] != Erased {
		t.Errorf("after erase: %+v", m)
	}
	if _, _, err := s.VerifyToken(ctx, tok); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("erased tenant's token verifies: %v", err)
	}
	if _, err := s.verifyAccessToken(ctx, access); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("erased tenant's access token verifies: %v", err)
	}
	if err := refreshWith(s, refresh); !isInvalidGrant(err) {
		t.Errorf("erased tenant's refresh = %v; want invalid_grant", err)
	}
	if err := exchangeWith(s, code); !isInvalidGrant(err) {
		t.Errorf("erased tenant's pending code = %v; want invalid_grant", err)
	}
	if tenant, _, err := s.VerifyToken(ctx, other); err != nil || tenant != "globex" {
		t.Errorf("other tenant's token = %q, %v", tenant, err)
	}
	if a, err := s.verifyAccessToken(ctx, otherAccess); err != nil || a.Tenant != "globex" {
		t.Errorf("other tenant's access token = %+v, %v", a, err)
	}
	if err := refreshWith(s, otherRefresh); err != nil {
		t.Errorf("other tenant's refresh: %v", err)
	}
}

// TestEraseIsOneTransaction proves that a failure at any step of an erase
// leaves every step undone: a trigger makes one of them fail, and the
// memories, the bearer token, the OAuth grant (access and refresh token)
// and the pending code all still work.
func TestEraseIsOneTransaction(t *testing.T) {
	for _, trigger := range []string{
		`CREATE TRIGGER no_revoke BEFORE UPDATE ON tokens BEGIN SELECT RAISE(ABORT, 'boom'); END`,
		`CREATE TRIGGER no_revoke BEFORE UPDATE ON oauth_grants BEGIN SELECT RAISE(ABORT, 'boom'); END`,
		`CREATE TRIGGER no_revoke BEFORE DELETE ON oauth_codes BEGIN SELECT RAISE(ABORT, 'boom'); END`,
	} {
		t.Run(strings.Fields(trigger)[6], func(t *testing.T) {
			s := openSeeded(t, nil)
			ctx := context.Background()
			tok, _ := s.IssueToken(ctx, "acme", []string{ScopeRead})
			access, refresh := signIn(t, s, "acme")
			code := pendingCode(t, s, "acme")
			if _, err := s.db.Exec(trigger); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Erase(ctx, "acme"); err == nil {
				t.Fatal("Erase succeeded despite the failing step")
			}
			if _, err := s.db.Exec(`DROP TRIGGER no_revoke`); err != nil {
				t.Fatal(err)
			}
			m, _ := s.Get(ctx, "acme", firstID(t, s, "acme"))
			if m.Content == Erased {
				t.Error("content was erased although a revocation failed")
			}
			if _, _, err := s.VerifyToken(ctx, tok); err != nil {
				t.Errorf("token no longer verifies: %v", err)
			}
			if _, err := s.verifyAccessToken(ctx, access); err != nil {
				t.Errorf("access token no longer verifies: %v", err)
			}
			if err := refreshWith(s, refresh); err != nil {
				t.Errorf("refresh token no longer works: %v", err)
			}
			if err := exchangeWith(s, code); err != nil {
				t.Errorf("pending code no longer works: %v", err)
			}
		})
	}
}

func TestTokensStoredHashed(t *testing.T) {
	s := openSeeded(t, nil)
	tok, _ := s.IssueToken(context.Background(), "acme", []string{ScopeRead})
	var n int
	s.db.QueryRow(`SELECT count(*) FROM tokens WHERE token_hash = ? OR scopes LIKE ?`, tok, "%"+tok+"%").Scan(&n)
	if n != 0 {
		t.Error("the plain token is stored")
	}
	if _, _, err := s.VerifyToken(context.Background(), "tg_unknown"); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("unknown token: %v", err)
	}
}

func TestSearchPaginatesAndEscapes(t *testing.T) {
	s := openSeeded(t, nil)
	ctx := context.Background()
	seen := map[string]bool{}
	offset := 0
	for pages := 0; ; pages++ {
		ms, next, err := s.Search(ctx, "acme", "noted", offset, 25)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if seen[m.ID] || m.Tenant != "acme" {
				t.Fatalf("page %d: duplicate or foreign %s (%s)", pages, m.ID, m.Tenant)
			}
			seen[m.ID] = true
		}
		if next == 0 {
			break
		}
		offset = next
	}
	var want int
	s.db.QueryRow(`SELECT count(*) FROM memories WHERE tenant='acme' AND lower(content) LIKE '%noted%'`).Scan(&want)
	if len(seen) != want || want == 0 {
		t.Errorf("search saw %d memories; want %d", len(seen), want)
	}
	if ms, _, _ := s.Search(ctx, "acme", "%", 0, 10); len(ms) != 0 {
		t.Errorf("search for %% matched %d", len(ms))
	}
}

func TestCorpusMemoryTagsAreJSON(t *testing.T) {
	s := openSeeded(t, nil)
	var tags string
	s.db.QueryRow(`SELECT tags FROM memories LIMIT 1`).Scan(&tags)
	var v []string
	if err := json.Unmarshal([]byte(tags), &v); err != nil || len(v) == 0 {
		t.Errorf("tags column %q: %v", tags, err)
	}
}

func TestOpenStoreOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a?b#c%d.db")
	s, err := OpenStore(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at %s: %v", path, err)
	}
}

// TestOpenStoreMigratesUnversionedFile opens a file written before the
// schema had versions (the tables of step 1 at user_version 0) and finds
// its memories kept and the OAuth tables added.
func TestOpenStoreMigratesUnversionedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = old.Exec(migrations[0] + `INSERT INTO memories (id, tenant, content, topic, memory_type, scope, project, recorded_at)
		VALUES ('mold', 'acme', 'kept', 't', 'fact', 'project', 'p', '2026-01-01T00:00:00Z');`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m, err := s.Get(context.Background(), "acme", "mold"); err != nil || m.Content != "kept" {
		t.Errorf("old memory = %+v, %v", m, err)
	}
	var version, tables int
	s.db.QueryRow(`PRAGMA user_version`).Scan(&version)
	s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'oauth_%'`).Scan(&tables)
	if version != len(migrations) || tables != 4 {
		t.Errorf("user_version %d, %d oauth tables; want %d, 4", version, tables, len(migrations))
	}
}
