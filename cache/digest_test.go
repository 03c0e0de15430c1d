package cache

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// rewriteOnDisk replaces old with new (of the same length) in the closed
// cache file at path, byte for byte, as a damaged sector or an edit by hand
// would: SQLite's pages carry no checksum, so only the digest can tell.
func rewriteOnDisk(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte(old)) != 1 {
		t.Fatalf("%q is not once in the file", old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedValueIsDropped: a value changed on disk is not served: Check,
// which verifies every digest, finds it; Get and GetDecoded say it is
// damaged (ErrDamaged) and drop it, and a Put (the host's refetch) stores
// it again. The other entries are left alone.
func TestDamagedValueIsDropped(t *testing.T) {
	ctx := context.Background()
	body := `{"content":"the launch is on the 3rd"}`
	readers := map[string]func(*Store) error{
		"Get": func(s *Store) error { _, _, err := s.Get(ctx, readKey("mem://1"), ""); return err },
		"GetDecoded": func(s *Store) error {
			_, _, _, err := s.GetDecoded(ctx, readKey("mem://1"), "", func(b []byte) (any, error) { return string(b), nil })
			return err
		},
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache.db")
			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			mustPut(t, s, public("mem://1", body))
			mustPut(t, s, public("mem://2", "untouched"))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			rewriteOnDisk(t, path, "on the 3rd", "on the 9th")
			if s, err = Open(path, nil); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Check of a file with a changed value = %v; want ErrCorrupt", err)
			}
			if err := read(s); !errors.Is(err, ErrDamaged) {
				t.Errorf("reading the changed value = %v; want ErrDamaged", err)
			}
			if got := value(t, s, readKey("mem://1"), ""); got != "" {
				t.Errorf("the damaged entry is still there: %q", got)
			}
			mustPut(t, s, public("mem://1", body))
			if got := value(t, s, readKey("mem://1"), ""); got != body {
				t.Errorf("after a Put: %q", got)
			}
			if got := value(t, s, readKey("mem://2"), ""); got != "untouched" {
				t.Errorf("the other entry: %q", got)
			}
			if err := s.Check(ctx); err != nil {
				t.Errorf("Check after the refetch: %v", err)
			}
		})
	}
}

// Another process's write to the file, digest and all left as they were,
// reaches a running Store's memory tier through data_version: the next Get
// reads the row, finds it damaged and drops it.
func TestDamagedValueReachesTheMemoryTier(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "cache.db")
	s, err := Open(path, &Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustPut(t, s, public("mem://1", "as the server sent it"))
	value(t, s, readKey("mem://1"), "") // into memory
	other, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec(`UPDATE entries SET value = CAST('as someone wrote it' AS BLOB)`); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Second) // past otherWritersInterval: the Store looks at data_version
	if _, _, err := s.Get(ctx, readKey("mem://1"), ""); !errors.Is(err, ErrDamaged) {
		t.Errorf("Get after another process changed the value = %v; want ErrDamaged", err)
	}
	if got := value(t, s, readKey("mem://1"), ""); got != "" {
		t.Errorf("the damaged entry is still served: %q", got)
	}
}
