package sqlitefile

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenCreatesPrivateFile: a new file, and the directories above it, are
// readable by their owner only, and the file is migrated.
func TestOpenCreatesPrivateFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "new.db")
	db, err := Open(context.Background(), path, "_journal_mode=WAL&_txlock=immediate", steps)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for p, want := range map[string]os.FileMode{dir: 0o700 | fs.ModeDir, path: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v; want mode %v", p, err, want)
		}
	}
	if v := version(t, db); v != len(steps) {
		t.Errorf("user_version %d; want %d", v, len(steps))
	}
}

// TestOpenRefusesBadFile: Open fails on a file that is not a database, is
// damaged or is from a newer schema, with an error the caller can tell
// apart, and changes nothing.
func TestOpenRefusesBadFile(t *testing.T) {
	tests := []struct {
		name    string
		make    func(t *testing.T, path string)
		corrupt bool // IsCorrupt, so a store may move it aside or refuse it
		newer   bool // ErrNewerSchema
	}{
		{"not a database", func(t *testing.T, path string) {
			if err := os.WriteFile(path, bytes.Repeat([]byte("not a database\n"), 1000), 0o600); err != nil {
				t.Fatal(err)
			}
		}, true, false},
		{"damaged pages", func(t *testing.T, path string) {
			writeDamagedFile(t, path, writeSoundFile(t, filepath.Join(t.TempDir(), "good.db")))
		}, true, false},
		{"newer schema", func(t *testing.T, path string) {
			db := rawDB(t, path, "")
			if _, err := db.Exec(`PRAGMA user_version = 9`); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.db")
			tt.make(t, path)
			before, _ := os.ReadFile(path)
			db, err := Open(context.Background(), path, "_txlock=immediate", steps)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if IsCorrupt(err) != tt.corrupt || errors.Is(err, ErrNewerSchema) != tt.newer {
				t.Errorf("Open = %v; want IsCorrupt %v, ErrNewerSchema %v", err, tt.corrupt, tt.newer)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Error("Open changed the file")
			}
		})
	}
}
