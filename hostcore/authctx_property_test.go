package hostcore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/threengram"
)

// credSource is one way a test server entry presents a credential. Each
// account of it resolves to what the server receives (key), in a group of
// entries that share a cache identity.
type credSource struct {
	server  string
	group   string
	account string
	// key says what the server receives, as the test itself works it out:
	// equal keys in a group are one authorization context.
	key func() string
	// tenant is whose memories the credential reads; "" means none (the
	// read must fail).
	tenant func() string
	// edit switches the credential to the other tenant, through the Host.
	edit func(t *testing.T)
}

// basicToBearer lets a URL's userinfo carry a threengram token: it turns
// HTTP Basic credentials into a bearer token, so that userinfo is a real
// credential the server checks.
func basicToBearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pass, ok := r.BasicAuth(); ok {
			r.Header.Set("Authorization", "Bearer "+pass)
		}
		next.ServeHTTP(w, r)
	})
}

// TestAuthorizationContextProperty runs random reads, purges, logouts and
// config edits by accounts whose credentials come from every source the
// host resolves: config env and headers, ${input:} in a header and in an
// argument, ${env:}, URL userinfo, an ad-hoc header, and the inherited
// environment (which no longer reaches the child). Against two tenants of
// threengram, over stdio and HTTP, it checks that a private hit is served
// exactly when a read with the same resolved credentials stored it since
// the last purge of that context: different credentials share no private
// hit, identical ones share every hit. It also checks that no body reaches
// a tenant that does not own it.
func TestAuthorizationContextProperty(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "tg.db")
	store, err := threengram.OpenStore(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if _, err := store.Seed(ctx, assets.Corpus); err != nil {
		t.Fatal(err)
	}
	tenants := []string{"acme", "globex"}
	tokens, owner := map[string]string{}, map[string]string{}
	var uris []string
	for _, tn := range tenants {
		tok, err := store.IssueToken(ctx, tn, []string{threengram.ScopeRead})
		if err != nil {
			t.Fatal(err)
		}
		tokens[tn] = tok
		ids, _, err := store.IDsWithPrefix(ctx, tn, "", 2)
		if err != nil || len(ids) < 2 {
			t.Fatalf("ids of %s: %v %v", tn, ids, err)
		}
		for _, id := range ids {
			uri := "threengram://memory/" + id
			uris, owner[uri] = append(uris, uri), tn
		}
	}
	srv := httptest.NewServer(basicToBearer(threengram.NewHTTPHandler(store, nil)))
	t.Cleanup(srv.Close)
	endpoint := srv.URL + "/mcp"
	other := map[string]string{"acme": "globex", "globex": "acme"}

	t.Setenv("TG_TOKEN_ACME", tokens["acme"])
	t.Setenv("TG_TENANT_GLOBEX", "globex")
	t.Setenv("THREENGRAM_TENANT", "acme") // inherited: must not reach any child

	cfg, err := config.LoadConfig(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	tg := binary(t, "cmd/threengram")
	// The values typed for ${input:} placeholders, by server; changed
	// after a logout, which forgets the typed values.
	var pmu sync.Mutex
	typed := map[string]string{"http-input": tokens["globex"], "stdio-arg": "acme"}
	prompts := 0
	h := hostcore.NewHost(cfg, withInProcess(&hostcore.HostOptions{
		Cache: openCache(t, dir),
		// The server without a credential fails to start on every read; the
		// reconnect backoff would only slow the run down.
		Sleep: func(context.Context, time.Duration) error { return nil },
		PromptInput: func(_ context.Context, server string, in config.Input) (string, error) {
			pmu.Lock()
			defer pmu.Unlock()
			prompts++
			return typed[server], nil
		},
	}))
	t.Cleanup(func() { h.Close() })

	hdr := map[string]string{"a1": "acme", "a2": "globex", "a3": "acme"}
	stdioEnv := map[string]string{"s1": "acme", "s2": "globex"}
	httpHdr := func() config.ServerConfig {
		sc := config.ServerConfig{Name: "http-hdr", URL: endpoint}
		for _, name := range []string{"a1", "a2", "a3"} {
			sc.Accounts = append(sc.Accounts, config.Account{Name: name,
				Headers: map[string]string{"Authorization": "Bearer " + tokens[hdr[name]]}})
		}
		return sc
	}
	stdioEnvSC := func() config.ServerConfig {
		sc := config.ServerConfig{Name: "stdio-env", Command: tg, Args: []string{"--db", db, "--stdio"}}
		for _, name := range []string{"s1", "s2"} {
			sc.Accounts = append(sc.Accounts, config.Account{Name: name, Env: map[string]string{"THREENGRAM_TENANT": stdioEnv[name]}})
		}
		sc.Accounts = append(sc.Accounts, config.Account{Name: "s3", Env: map[string]string{"THREENGRAM_TENANT": "${env:TG_TENANT_GLOBEX}"}})
		return sc
	}
	userinfo := strings.Replace(endpoint, "http://", "http://tg:"+tokens["acme"]+"@", 1)
	entries := []config.ServerConfig{
		httpHdr(),
		{Name: "http-input", URL: endpoint, Headers: map[string]string{"Authorization": "Bearer ${input:token}"},
			Inputs: []config.Input{{ID: "token", Type: "promptString", Password: true}}},
		{Name: "http-env", URL: endpoint, Accounts: []config.Account{
			{Name: "e1", Headers: map[string]string{"Authorization": "Bearer ${env:TG_TOKEN_ACME}"}}}},
		{Name: "http-userinfo", URL: userinfo, Accounts: []config.Account{{Name: "u1"}}},
		stdioEnvSC(),
		{Name: "stdio-arg", Command: tg, Args: []string{"--db", db, "--stdio", "--tenant", "${input:tenant}"},
			Inputs: []config.Input{{ID: "tenant", Type: "promptString"}}, Accounts: []config.Account{{Name: "g1"}}},
		{Name: "stdio-inherit", Command: tg, Args: []string{"--db", db, "--stdio"},
			Accounts: []config.Account{{Name: "i1"}}},
	}
	for _, sc := range entries {
		if err := cfg.Upsert(sc); err != nil {
			t.Fatal(err)
		}
	}
	// The stdio-inherit entry declares no tenant: the server would take
	// $THREENGRAM_TENANT, set in this process, if the host passed it on.
	adHoc := config.ServerConfig{Name: "ad-hoc", URL: endpoint, Headers: map[string]string{"Authorization": "Bearer " + tokens["acme"]}}

	bearer := func(tn string) func() string { return func() string { return "bearer " + tokens[tn] } }
	fixed := func(tn string) func() string { return func() string { return tn } }
	sources := []credSource{
		{server: "http-hdr", group: "http", account: "a1", key: bearer("acme"), tenant: fixed("acme")},
		{server: "http-hdr", group: "http", account: "a2",
			key: func() string { return "bearer " + tokens[hdr["a2"]] }, tenant: func() string { return hdr["a2"] },
			edit: func(t *testing.T) {
				hdr["a2"] = other[hdr["a2"]]
				if err := h.ReplaceServer(ctx, httpHdr()); err != nil {
					t.Fatal(err)
				}
			}},
		{server: "http-hdr", group: "http", account: "a3", key: bearer("acme"), tenant: fixed("acme")},
		{server: "http-input", group: "http", account: "default",
			key: func() string { return "bearer " + typed["http-input"] }, tenant: func() string {
				for tn, tok := range tokens {
					if tok == typed["http-input"] {
						return tn
					}
				}
				return ""
			},
			edit: func(t *testing.T) {
				sc, _ := cfg.Find("http-input")
				if err := h.Logout(ctx, sc, ""); err != nil {
					t.Fatal(err)
				}
				pmu.Lock()
				if typed["http-input"] == tokens["acme"] {
					typed["http-input"] = tokens["globex"]
				} else {
					typed["http-input"] = tokens["acme"]
				}
				pmu.Unlock()
			}},
		{server: "http-env", group: "http", account: "e1", key: bearer("acme"), tenant: fixed("acme")},
		{server: "http-userinfo", group: "http", account: "u1", key: func() string { return "userinfo " + tokens["acme"] }, tenant: fixed("acme")},
		{server: "ad-hoc", group: "http", account: "default", key: bearer("acme"), tenant: fixed("acme")},
		{server: "stdio-env", group: "stdio-env", account: "s1", key: func() string { return "env acme" }, tenant: fixed("acme")},
		{server: "stdio-env", group: "stdio-env", account: "s2",
			key: func() string { return "env " + stdioEnv["s2"] }, tenant: func() string { return stdioEnv["s2"] },
			edit: func(t *testing.T) {
				stdioEnv["s2"] = other[stdioEnv["s2"]]
				if err := h.ReplaceServer(ctx, stdioEnvSC()); err != nil {
					t.Fatal(err)
				}
			}},
		{server: "stdio-env", group: "stdio-env", account: "s3", key: func() string { return "env globex" }, tenant: fixed("globex")},
		{server: "stdio-arg", group: "stdio-arg", account: "g1", key: func() string { return "arg " + typed["stdio-arg"] },
			tenant: func() string { return typed["stdio-arg"] },
			edit: func(t *testing.T) {
				sc, _ := cfg.Find("stdio-arg")
				if err := h.Logout(ctx, sc, "g1"); err != nil {
					t.Fatal(err)
				}
				pmu.Lock()
				typed["stdio-arg"] = other[typed["stdio-arg"]]
				pmu.Unlock()
			}},
		{server: "stdio-inherit", group: "stdio-inherit", account: "i1", key: func() string { return "none" }, tenant: fixed("")},
	}

	// The model: which (group, uri, context) entries the cache holds, and
	// the account name that stored each; which accounts hold a connection.
	type row struct{ group, uri, key string }
	rows := map[row]string{}
	type who struct{ server, account string }
	used := map[who]string{} // the context each live connection resolved
	bodies := map[string]string{}
	purgeKey := func(group, key string) {
		for r := range rows {
			if r.group == group && r.key == key {
				delete(rows, r)
			}
		}
	}
	purgeLabel := func(group, label string) {
		for r, l := range rows {
			if (group == "" || r.group == group) && l == label {
				delete(rows, r)
			}
		}
	}
	// logout mirrors Host.Logout: the contexts of the account's live
	// connections, then every entry stored under its name.
	logout := func(s credSource) {
		if k, ok := used[who{s.server, s.account}]; ok {
			purgeKey(s.group, k)
			delete(used, who{s.server, s.account})
		}
		purgeLabel(s.group, s.account)
	}
	connFor := func(s credSource) *hostcore.Conn {
		if s.server == "ad-hoc" {
			return conn(t, h, adHoc, "")
		}
		c, err := h.Conn(s.server, s.account)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	rng := rand.New(rand.NewPCG(2026, 12))
	var hits, shared, refused int
	for step := range 400 {
		s := sources[rng.IntN(len(sources))]
		switch op := rng.IntN(20); {
		case op < 16: // read
			uri := uris[rng.IntN(len(uris))]
			c := connFor(s)
			k := s.key()
			res, err := c.Read(ctx, uri, hostcore.ReadUse)
			stored, want := rows[row{s.group, uri, k}]
			tn := s.tenant()
			switch {
			case tn == "":
				if err == nil {
					t.Fatalf("step %d: %s/%s has no credential, yet read %s (%s)", step, s.server, s.account, uri, res.Cache.Status)
				}
				refused++
				continue
			case owner[uri] != tn:
				if !errors.Is(err, fault.ErrNotFound) {
					t.Fatalf("step %d: %s/%s (%s) read %s of %s: want not found, got %v", step, s.server, s.account, tn, uri, owner[uri], err)
				}
				refused++
			case err != nil:
				t.Fatalf("step %d: %s/%s read %s: %v", step, s.server, s.account, uri, err)
			default:
				if b, ok := bodies[uri]; ok && b != res.Contents[0].Text {
					t.Fatalf("step %d: %s/%s read another body for %s", step, s.server, s.account, uri)
				}
				bodies[uri] = res.Contents[0].Text
				hit := res.Cache.Status == hostcore.CacheHit
				if hit != want {
					t.Fatalf("step %d: %s/%s read %s in context %q: hit=%v, but the model says stored=%v", step, s.server, s.account, uri, k, hit, want)
				}
				if hit {
					hits++
					if stored != s.account {
						shared++
					}
				} else {
					rows[row{s.group, uri, k}] = s.account
				}
			}
			used[who{s.server, s.account}] = k
		case op < 17: // purge by account name, everywhere
			if _, err := h.PurgeCache(ctx, hostcore.CacheFilter{Account: s.account, PrivateOnly: true}); err != nil {
				t.Fatal(err)
			}
			purgeLabel("", s.account)
		case op < 19: // logout
			if s.server == "ad-hoc" {
				continue
			}
			sc, err := cfg.Find(s.server)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Logout(ctx, sc, s.account); err != nil {
				t.Fatal(err)
			}
			logout(s)
		default: // a config edit
			if s.edit == nil {
				continue
			}
			logout(s)
			s.edit(t)
		}
	}
	t.Logf("%d private hits (%d served to another account name with the same credentials), %d refusals, %d prompts", hits, shared, refused, prompts)
	if hits == 0 || shared == 0 {
		t.Errorf("the run never shared a hit (hits %d, across names %d): the property was not exercised", hits, shared)
	}
	if prompts < 2 {
		t.Errorf("inputs were asked for %d times; logouts should make the host ask again", prompts)
	}
}
