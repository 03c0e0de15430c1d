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

// writeVersion1File writes a file as the first schema left it, holding
// entries.
func writeVersion1File(t *testing.T, path string, entries []Entry) {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrate(context.Background(), db, migrations[:1]); err != nil {
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

// TestMigrateFromVersion1 opens a version 1 file with entries: the entries
// survive, the file reaches the current version, and the new bookkeeping
// is filled from the old rows.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	stored := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	old := []Entry{
		{Key: readKey("mem://1"), Scope: Public, Value: []byte("shared"), StoredAt: stored, TTL: time.Hour, Size: 6},
		{Key: readKey("mem://1"), Scope: Private, Account: "acme", Value: []byte("acme's"), StoredAt: stored, TTL: time.Minute, Size: 6},
	}
	writeVersion1File(t, path, old)

	var log bytes.Buffer
	s, err := Open(path, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if log.Len() != 0 {
		t.Errorf("opening an old file logged %q; a migration is not a recovery", log.String())
	}
	for _, want := range old {
		got, ok, err := s.Get(ctx, want.Key, want.Account)
		if err != nil || !ok {
			t.Fatalf("Get(%v, %q) = %v, %v", want.Key, want.Account, ok, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("entry after migration (-want +got):\n%s", diff)
		}
	}
	var version int
	var lastAccess int64
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(migrations) {
		t.Errorf("user_version = %d, %v; want %d", version, err, len(migrations))
	}
	if err := s.db.QueryRow(`SELECT min(last_access) FROM entries`).Scan(&lastAccess); err != nil || lastAccess != stored.UnixNano() {
		t.Errorf("last_access = %d, %v; want stored_at %d", lastAccess, err, stored.UnixNano())
	}
	if st, err := s.Stats(ctx, Filter{}); err != nil || st.Bytes != 12 {
		t.Errorf("Stats.Bytes = %d, %v; want 12", st.Bytes, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
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
