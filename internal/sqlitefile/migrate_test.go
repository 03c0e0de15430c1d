package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// steps is a schema of three versions. Each step fails if run twice, and
// each needs the ones before it, so a test sees a step run out of turn.
var steps = []string{
	`CREATE TABLE a (x INTEGER PRIMARY KEY)`,
	`CREATE TABLE b (y REFERENCES a (x)); INSERT INTO a VALUES (1)`,
	`CREATE TABLE c (z); INSERT INTO b SELECT x FROM a`,
}

func TestMigrate(t *testing.T) {
	tests := []struct {
		name       string
		from       int // the steps run before Migrate(steps)
		wantTables []string
	}{
		{"from version 0", 0, []string{"a", "b", "c"}},
		{"from a middle version", 1, []string{"a", "b", "c"}},
		{"already current", len(steps), []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, ctx := newDB(t), context.Background()
			if err := Migrate(ctx, db, steps[:tt.from]); err != nil {
				t.Fatal(err)
			}
			if v := version(t, db); v != tt.from {
				t.Fatalf("user_version %d after %d steps", v, tt.from)
			}
			if err := Migrate(ctx, db, steps); err != nil {
				t.Fatal(err)
			}
			if v := version(t, db); v != len(steps) {
				t.Errorf("user_version %d; want %d", v, len(steps))
			}
			if diff := cmp.Diff(tt.wantTables, tables(t, db)); diff != "" {
				t.Errorf("tables (-want +got):\n%s", diff)
			}
			var rows int
			if err := db.QueryRow(`SELECT count(*) FROM b`).Scan(&rows); err != nil || rows != 1 {
				t.Errorf("b holds %d rows, %v; want the 1 that step 3 copied after step 2", rows, err)
			}
		})
	}
}

// TestFailedStepRollsBack: the missing steps and the version bump share a
// transaction, so a failing step takes the steps before it back with it.
func TestFailedStepRollsBack(t *testing.T) {
	tests := []struct {
		name       string
		from       int
		wantTables []string
	}{
		{"from version 0", 0, nil},
		{"from a middle version", 1, []string{"a"}},
	}
	broken := append(steps[:2:2], `CREATE TABLE broken (`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, ctx := newDB(t), context.Background()
			if err := Migrate(ctx, db, steps[:tt.from]); err != nil {
				t.Fatal(err)
			}
			err := Migrate(ctx, db, broken)
			if err == nil || !strings.Contains(err.Error(), "migrating to schema version 3") {
				t.Fatalf("Migrate with a broken third step = %v; want an error naming version 3", err)
			}
			if v := version(t, db); v != tt.from {
				t.Errorf("user_version %d after a failed migration; want %d, as it was", v, tt.from)
			}
			if diff := cmp.Diff(tt.wantTables, tables(t, db)); diff != "" {
				t.Errorf("tables after a failed migration (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNewerSchemaIsRefused: a file past the program's last step is left
// alone, whether or not the program's steps would run on it.
func TestNewerSchemaIsRefused(t *testing.T) {
	db, ctx := newDB(t), context.Background()
	if _, err := db.Exec(`PRAGMA user_version = 7`); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db, steps); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Migrate of a version 7 file to %d = %v; want ErrNewerSchema", len(steps), err)
	}
	if v, tabs := version(t, db), tables(t, db); v != 7 || len(tabs) != 0 {
		t.Errorf("after refusing: user_version %d, tables %v; want 7 and none", v, tabs)
	}
}

// TestConcurrentMigrate: openers that race on a new file, each with its own
// connections as another process would have, all succeed, and the steps
// run once (a second run of either would fail). The first step is slow, so
// that the openers overlap.
func TestConcurrentMigrate(t *testing.T) {
	slow := []string{
		`CREATE TABLE a (x INTEGER PRIMARY KEY);
		INSERT INTO a WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
			SELECT i FROM n;`,
		`CREATE TABLE b (y)`,
	}
	path := filepath.Join(t.TempDir(), "shared.db")
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		db := rawDB(t, path, "_txlock=immediate&_busy_timeout=10000")
		wg.Go(func() { errs[i] = Migrate(context.Background(), db, slow) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if v := version(t, rawDB(t, path, "")); v != len(slow) {
		t.Errorf("user_version %d; want %d", v, len(slow))
	}
}

// newDB opens a new file as the stores do: transactions take the write
// lock at BEGIN.
func newDB(t *testing.T) *sql.DB {
	t.Helper()
	return rawDB(t, filepath.Join(t.TempDir(), "test.db"), "_txlock=immediate")
}

func version(t *testing.T, db *sql.DB) int {
	t.Helper()
	v, err := schemaVersion(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tables lists db's tables by name.
func tables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	names, err := rows(context.Background(), db, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	return names
}
