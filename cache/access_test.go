package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFreshProcessHit opens the file once per read, as attachectl does,
// and reads one entry through Get and GetDecoded, with and without the
// memory tier. A hit uses one SQLite connection. A hit within a second of
// the row's last access writes nothing to the file (another connection
// sees no commit, and last_access stays); a later one records its time.
func TestFreshProcessHit(t *testing.T) {
	ctx := context.Background()
	reads := []struct {
		name string
		get  func(*Store) (bool, error)
	}{
		{"Get", func(s *Store) (bool, error) {
			_, ok, err := s.Get(ctx, readKey("A"), "")
			return ok, err
		}},
		{"GetDecoded", func(s *Store) (bool, error) {
			_, _, ok, err := s.GetDecoded(ctx, readKey("A"), "", func(b []byte) (any, error) { return string(b), nil })
			return ok, err
		}},
	}
	for _, tier := range tiers {
		for _, read := range reads {
			t.Run(tier.name+"/"+read.name, func(t *testing.T) {
				c := newClock()
				path := filepath.Join(t.TempDir(), "cache.db")
				process := func(advance time.Duration) {
					t.Helper()
					s, err := Open(path, &Options{Now: c.Now, MemoryEntries: tier.memoryEntries})
					if err != nil {
						t.Fatal(err)
					}
					defer func() {
						if err := s.Close(); err != nil {
							t.Fatal(err)
						}
					}()
					c.Advance(advance)
					if ok, err := read.get(s); !ok || err != nil {
						t.Fatalf("read: %v, %v; want a hit", ok, err)
					}
					if n := s.db.Stats().OpenConnections; n != 1 {
						t.Errorf("%d SQLite connections open after a hit; want 1", n)
					}
				}
				s, err := Open(path, &Options{Now: c.Now})
				if err != nil {
					t.Fatal(err)
				}
				mustPut(t, s, public("A", "a"))
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				stored := c.Now()
				watch := newWatcher(t, path)

				process(accessGrain / 2)
				if watch.committed() {
					t.Error("a hit within a second of the last access committed a write")
				}
				if got := watch.lastAccess("A"); !got.Equal(stored) {
					t.Errorf("last_access %v after a hit within a second; want %v, as stored", got, stored)
				}

				clean := fileState(t, path)
				process(2 * accessGrain)
				if watch.committed() {
					t.Error("a hit two seconds after the last access committed a write; its time belongs in the access file")
				}
				if got := fileState(t, path); got != clean {
					t.Errorf("a plain hit changed the cache's files: %s; want %s", got, clean)
				}
				hit := c.Now()
				s, err = Open(path, &Options{Now: c.Now})
				if err != nil {
					t.Fatal(err)
				}
				c.Advance(time.Second)
				mustPut(t, s, public("B", "b")) // a write folds the access file in
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if got := watch.lastAccess("A"); !got.Equal(hit) {
					t.Errorf("last_access %v after the next write; want %v, the later hit", got, hit)
				}
				if n := (accessFile{path + ".access"}).size(); n != 0 {
					t.Errorf("the access file holds %d bytes after a write folded it in; want 0", n)
				}
			})
		}
	}
}

// watcher is another connection to a cache file, which sees whether anyone
// committed to it since it last looked (PRAGMA data_version).
type watcher struct {
	t       *testing.T
	conn    *sql.Conn
	version int64
}

func newWatcher(t *testing.T, path string) *watcher {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	w := &watcher{t: t, conn: conn}
	w.committed()
	return w
}

// committed reports whether another connection committed since the last
// call.
func (w *watcher) committed() bool {
	w.t.Helper()
	var v int64
	if err := w.conn.QueryRowContext(context.Background(), "PRAGMA data_version").Scan(&v); err != nil {
		w.t.Fatal(err)
	}
	changed := v != w.version
	w.version = v
	return changed
}

func (w *watcher) lastAccess(uri string) time.Time {
	w.t.Helper()
	var n int64
	if err := w.conn.QueryRowContext(context.Background(), "SELECT last_access FROM entries WHERE param = ?", readKey(uri).Param).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return time.Unix(0, n)
}

// fileState describes the cache file and its companions as a plain hit
// must leave them: the database, its WAL and its clean record.
func fileState(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	for _, name := range []string{path, path + "-wal", path + ".clean"} {
		fi, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(&b, "%s absent; ", filepath.Base(name))
		case err != nil:
			t.Fatal(err)
		default:
			fmt.Fprintf(&b, "%s %d bytes at %d; ", filepath.Base(name), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}
