package state

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// rawDB opens the database file at path (a new one if empty) with the
// Store's settings, without a Store: no check, migration or purge.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "state.db")
	}
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func userVersion(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func tableExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = ?", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestMigrateRunsMissingStepsInOrder: a file runs only the steps after its
// version (step 1 would fail if run twice), in order (step 2 needs 1's
// table).
func TestMigrateRunsMissingStepsInOrder(t *testing.T) {
	db, ctx := rawDB(t, ""), context.Background()
	steps := []string{`CREATE TABLE a (x)`, `CREATE TABLE b (y REFERENCES a (x)); INSERT INTO a VALUES (1)`}
	if err := migrate(ctx, db, steps[:1]); err != nil {
		t.Fatal(err)
	}
	if v := userVersion(t, db); v != 1 {
		t.Fatalf("user_version %d after one step; want 1", v)
	}
	for range 2 { // the second run finds nothing to do
		if err := migrate(ctx, db, steps); err != nil {
			t.Fatal(err)
		}
	}
	if v := userVersion(t, db); v != 2 || !tableExists(t, db, "b") {
		t.Errorf("user_version %d, table b exists %v; want 2, true", v, tableExists(t, db, "b"))
	}
}

// TestFailedMigrationLeavesFileAsItWas: the steps and the version bump
// share a transaction, so a failing step undoes the ones before it.
func TestFailedMigrationLeavesFileAsItWas(t *testing.T) {
	db, ctx := rawDB(t, ""), context.Background()
	err := migrate(ctx, db, []string{`CREATE TABLE a (x)`, `CREATE TABLE broken (`})
	if err == nil {
		t.Fatal("a broken step migrated")
	}
	if v := userVersion(t, db); v != 0 || tableExists(t, db, "a") {
		t.Errorf("after a failed migration: user_version %d, table a exists %v; want 0, false",
			v, tableExists(t, db, "a"))
	}
}

// TestSchemaIsCurrent: a new file ends at the last version with the
// partial unique index that keeps duplicates out.
func TestSchemaIsCurrent(t *testing.T) {
	s := openTest(t, "")
	if v := userVersion(t, s.db); v != len(migrations) {
		t.Errorf("user_version %d; want %d", v, len(migrations))
	}
	if !tableExists(t, s.db, "attachments_attached") {
		t.Error("no attachments_attached index")
	}
}
