package cache

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"
	"time"
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

// migrateFile brings the file at path to schema version n (of the
// migrations), with no Store: what a program of that version did.
func migrateFile(t *testing.T, path string, n int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := migrate(context.Background(), db, migrations[:n]); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestMigrateFromVersion1 migrates a version 1 file with entries: by
// version 3 the public entry has the new bookkeeping filled from its row
// and the private one is gone (see step 3); step 4 then drops every entry,
// which has no digest to be checked by, and the file takes new ones.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	stored := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	kept := Entry{Key: readKey("mem://1"), Scope: Public, Value: []byte("shared"), StoredAt: stored, TTL: time.Hour, Size: 6}
	writeOldFile(t, path, 1, []Entry{kept,
		{Key: readKey("mem://1"), Scope: Private, Account: "acme", Value: []byte("acme's"), StoredAt: stored, TTL: time.Minute, Size: 6},
	})
	db := migrateFile(t, path, 3)
	var scope string
	var lastAccess, total int64
	err := db.QueryRow(`SELECT group_concat(scope), min(last_access), (SELECT bytes FROM totals) FROM entries`).Scan(&scope, &lastAccess, &total)
	if err != nil || scope != "public" || lastAccess != stored.UnixNano() || total != 6 {
		t.Errorf("at version 3: scopes %q, last_access %d, total %d, %v; want the public row alone, last_access %d, 6 bytes",
			scope, lastAccess, total, err, stored.UnixNano())
	}
	db.Close()

	s := openMigrated(t, path)
	if _, ok, err := s.Get(ctx, kept.Key, "acme"); ok || err != nil {
		t.Errorf("Get(%v) after step 4 = %v, %v; want no entry: it had no digest", kept.Key, ok, err)
	}
	if err := s.Put(ctx, kept); err != nil {
		t.Fatal(err)
	}
	if got := value(t, s, kept.Key, "acme"); got != "shared" {
		t.Errorf("a Put after the migration reads back %q", got)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestMigrateFromVersion2 migrates a version 2 file whose private
// partitions are "name@fingerprint" strings: by version 3 every private
// row is gone and the public rows stay with no account name; step 4 drops
// the rest, and every dropped body is gone from the disk too
// (secure_delete), with the size accounting still adding up.
func TestMigrateFromVersion2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	stored := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	public := "v2-public-body-2c4d"
	kept := []Entry{
		{Key: readKey("mem://1"), Scope: Public, Value: []byte(public), StoredAt: stored, TTL: time.Hour, Size: int64(len(public))},
		{Key: Key{"stdio:9f1c", "resources/list", ""}, Scope: Public, Value: []byte("page"), StoredAt: stored, Size: 4},
	}
	marker := "v2-private-body-7f3e9a"
	gone := []Entry{
		{Key: readKey("mem://1"), Scope: Private, Account: "alice@3f2a", Value: []byte(marker), StoredAt: stored, TTL: time.Hour, Size: int64(len(marker))},
		{Key: readKey("mem://2"), Scope: Private, Account: "alice@example.com@9b1c", Value: []byte("x"), StoredAt: stored, Size: 1},
	}
	writeOldFile(t, path, 2, append(append([]Entry(nil), kept...), gone...))
	db := migrateFile(t, path, 3)
	var n, named int
	if err := db.QueryRow(`SELECT count(*), count(nullif(account_name, '')) FROM entries WHERE scope = 'public'`).Scan(&n, &named); err != nil || n != 2 || named != 0 {
		t.Errorf("at version 3: %d public rows, %d named, %v; want 2 and 0", n, named, err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM entries WHERE scope = 'private'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("at version 3: %d private rows, %v; want none", n, err)
	}
	db.Close()
	// Closed before anything else writes: a later write to the page could
	// defragment it and wipe the deleted cell by chance.
	if err := openMigrated(t, path).Close(); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{marker, public} {
		if n := countOnDisk(t, path, body); n != 0 {
			t.Errorf("a body the migration deleted is still on disk (%d copies of %q)", n, body)
		}
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, err := s.Stats(ctx, Filter{}); err != nil || st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("Stats after migration = %d entries, %d bytes, %v; want none", st.Entries, st.Bytes, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO entries
		(server, method, param, scope, account, account_name, value, digest, stored_at, ttl, size)
		VALUES ('s', 'm', 'p', 'public', '', 'alice', x'', zeroblob(32), 0, 0, 0)`)
	if err == nil {
		t.Error("the table took a public row with an account name; the CHECK is missing")
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO entries
		(server, method, param, scope, account, value, stored_at, ttl, size) VALUES ('s', 'm', 'p', 'public', '', x'', 0, 0, 0)`)
	if err == nil {
		t.Error("the table took a row without a digest; the CHECK is missing")
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
