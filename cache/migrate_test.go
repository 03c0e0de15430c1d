package cache

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeOldFile writes a file as the first version steps of the schema left
// it, holding entries. Steps 1 and 2 share the columns written here.
func writeOldFile(t *testing.T, path string, version int, entries []Entry) {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrate(context.Background(), db, migrations[:version]); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		_, err := db.Exec(`INSERT INTO entries (server, method, param, scope, account, value, stored_at, ttl, size)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.Key.Server, e.Key.Method, e.Key.Param, string(e.Scope), e.Account,
			e.Value, e.StoredAt.UnixNano(), int64(e.TTL), e.Size)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// openMigrated opens a file written by writeOldFile, failing the test if
// the migration logged anything: a migration is not a recovery.
func openMigrated(t *testing.T, path string) *Store {
	t.Helper()
	var log bytes.Buffer
	s, err := Open(path, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if log.Len() != 0 {
		t.Errorf("opening an old file logged %q; a migration is not a recovery", log.String())
	}
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(migrations) {
		t.Errorf("user_version = %d, %v; want %d", version, err, len(migrations))
	}
	return s
}

// TestMigrateFromVersion1 opens a version 1 file with entries: the public
// entry survives with the new bookkeeping filled from its row, and the
// private one goes (see step 3).
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	stored := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	kept := Entry{Key: readKey("mem://1"), Scope: Public, Value: []byte("shared"), StoredAt: stored, TTL: time.Hour, Size: 6}
	writeOldFile(t, path, 1, []Entry{kept,
		{Key: readKey("mem://1"), Scope: Private, Account: "acme", Value: []byte("acme's"), StoredAt: stored, TTL: time.Minute, Size: 6},
	})
	s := openMigrated(t, path)
	got, ok, err := s.Get(ctx, kept.Key, "acme")
	if err != nil || !ok {
		t.Fatalf("Get(%v, acme) = %v, %v", kept.Key, ok, err)
	}
	if diff := cmp.Diff(kept, got); diff != "" {
		t.Errorf("what acme sees after migration (-want +got):\n%s", diff)
	}
	var lastAccess int64
	if err := s.db.QueryRow(`SELECT min(last_access) FROM entries`).Scan(&lastAccess); err != nil || lastAccess != stored.UnixNano() {
		t.Errorf("last_access = %d, %v; want stored_at %d", lastAccess, err, stored.UnixNano())
	}
	if st, err := s.Stats(ctx, Filter{}); err != nil || st.Bytes != 6 || st.Private != 0 {
		t.Errorf("Stats = %d bytes, %d private, %v; want 6 and 0", st.Bytes, st.Private, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestMigrateFromVersion2 opens a version 2 file whose private partitions
// are "name@fingerprint" strings: every private row goes, from SQLite and
// from the disk (secure_delete), the public rows stay with no account name,
// and the size accounting still adds up.
func TestMigrateFromVersion2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	stored := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	kept := []Entry{
		{Key: readKey("mem://1"), Scope: Public, Value: []byte("public one"), StoredAt: stored, TTL: time.Hour, Size: 10},
		{Key: Key{"stdio:9f1c", "resources/list", ""}, Scope: Public, Value: []byte("page"), StoredAt: stored, Size: 4},
	}
	marker := "v2-private-body-7f3e9a"
	gone := []Entry{
		{Key: readKey("mem://1"), Scope: Private, Account: "alice@3f2a", Value: []byte(marker), StoredAt: stored, TTL: time.Hour, Size: int64(len(marker))},
		{Key: readKey("mem://2"), Scope: Private, Account: "alice@example.com@9b1c", Value: []byte("x"), StoredAt: stored, Size: 1},
	}
	writeOldFile(t, path, 2, append(append([]Entry(nil), kept...), gone...))
	// Closed before anything else writes: a later write to the page could
	// defragment it and wipe the deleted cell by chance.
	if err := openMigrated(t, path).Close(); err != nil {
		t.Fatal(err)
	}
	if n := countOnDisk(t, path, marker); n != 0 {
		t.Errorf("the migration's deleted body is still on disk (%d copies)", n)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, want := range kept {
		got, ok, err := s.Get(ctx, want.Key, "alice@3f2a")
		if err != nil || !ok {
			t.Fatalf("Get(%v) = %v, %v; want the public entry", want.Key, ok, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("public entry after migration (-want +got):\n%s", diff)
		}
	}
	if got := value(t, s, readKey("mem://2"), "alice@example.com@9b1c"); got != "" {
		t.Errorf("an old private entry survived the migration: %q", got)
	}
	want := Stats{Entries: 2, Bytes: 14, Public: 2, ByAccount: map[string]int{}}
	st, err := s.Stats(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	got := Stats{Entries: st.Entries, Bytes: st.Bytes, Public: st.Public, Private: st.Private, ByAccount: st.ByAccount}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stats after migration (-want +got):\n%s", diff)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO entries
		(server, method, param, scope, account, account_name, value, stored_at, ttl, size)
		VALUES ('s', 'm', 'p', 'public', '', 'alice', x'', 0, 0, 0)`)
	if err == nil {
		t.Error("the table took a public row with an account name; the CHECK is missing")
	}
}

// TestFailedMigrationLeavesFileAsItWas runs a good step and a broken one:
// the transaction must take the good step back with it.
func TestFailedMigrationLeavesFileAsItWas(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", dsn(filepath.Join(t.TempDir(), "cache.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrate(ctx, db, []string{migrations[0], "CREATE TABLE broken ("}); err == nil {
		t.Fatal("a broken migration succeeded")
	}
	var version, tables int
	if err := db.QueryRow(`SELECT (SELECT user_version FROM pragma_user_version), count(*) FROM sqlite_schema`).
		Scan(&version, &tables); err != nil {
		t.Fatal(err)
	}
	if version != 0 || tables != 0 {
		t.Errorf("after a failed migration: version %d, %d schema objects; want 0 and 0", version, tables)
	}
}
