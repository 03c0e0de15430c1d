package sqlitefile

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestURIEscapesThePath(t *testing.T) {
	got := URI("/data/a?b#c%d e.db", "_journal_mode=WAL&_busy_timeout=5000")
	want := "file:///data/a%3Fb%23c%25d%20e.db?_journal_mode=WAL&_busy_timeout=5000"
	if got != want {
		t.Errorf("URI = %s; want %s", got, want)
	}
}

// TestURIOpensTheFileNamed opens, through the driver, files whose names
// the driver would misread in a plain path or an unescaped URI: each must
// land under its own name, and the parameters must still take effect.
func TestURIOpensTheFileNamed(t *testing.T) {
	for _, name := range []string{
		"plain.db",
		"what?.db",
		"a?_journal_mode=DELETE.db",
		"hash#tag.db",
		"100%.db",
		"%3F.db", // an escape in the name must stay three characters
		"with space.db",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			db := rawDB(t, path, "_journal_mode=WAL&_busy_timeout=4321")
			if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
				t.Fatal(err)
			}
			var mode string
			var timeout int
			if err := db.QueryRow(`SELECT (SELECT journal_mode FROM pragma_journal_mode),
				(SELECT timeout FROM pragma_busy_timeout)`).Scan(&mode, &timeout); err != nil {
				t.Fatal(err)
			}
			if mode != "wal" || timeout != 4321 {
				t.Errorf("journal_mode %s, busy_timeout %d; want wal, 4321 from the parameters", mode, timeout)
			}
			if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v; want the database under its own name", name, err)
			}
			for _, e := range mustReadDir(t, dir) {
				if !strings.HasPrefix(e.Name(), name) { // name, name-wal, name-shm
					t.Errorf("a stray file %q beside %q: the driver misread the name", e.Name(), name)
				}
			}
		})
	}
}

// rawDB opens the file at path with params, closing it when t ends.
func rawDB(t *testing.T, path, params string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", URI(path, params))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
