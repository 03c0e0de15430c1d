package state

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
)

// testClock returns a clock that starts off UTC, with nanoseconds, and
// moves one second a call, so that every change has its own time.
func testClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// openTest opens the state file at path (a new one in t.TempDir() if
// empty) with testClock, and closes it when the test ends.
func openTest(t *testing.T, path string) *Store {
	t.Helper()
	if path == "" {
		path = DefaultPath(t.TempDir())
	}
	s, err := Open(path, &Options{Now: testClock()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newConversation(t *testing.T, s *Store, title string) hostcore.Conversation {
	t.Helper()
	c, err := s.CreateConversation(context.Background(), title)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// attachment is a valid attachment of uri on server "mem" to conversation.
func attachment(conversation int64, uri string) hostcore.Attachment {
	return hostcore.Attachment{ConversationID: conversation, Server: hostcore.ServerRef{Name: "mem"},
		URI: uri, Origin: hostcore.FromList}
}

func mustAdd(t *testing.T, s *Store, a hostcore.Attachment) hostcore.Attachment {
	t.Helper()
	got, err := s.AddAttachment(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustConversations(t *testing.T, s *Store) []hostcore.Conversation {
	t.Helper()
	cs, err := s.Conversations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func mustAttachments(t *testing.T, s *Store, id int64) []hostcore.Attachment {
	t.Helper()
	as, err := s.Attachments(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// count returns the number of rows of table, removed ones included.
func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOpenSetsPragmas checks every pooled connection, not just the first:
// the settings come from the DSN and a connection without them would
// commit without syncing or ignore the foreign keys.
func TestOpenSetsPragmas(t *testing.T) {
	s := openTest(t, "")
	ctx := context.Background()
	for i := range 3 {
		conn, err := s.db.Conn(ctx) // held open, so each is a different connection
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var journal string
		var sync, busy, fk int
		err = conn.QueryRowContext(ctx, `SELECT * FROM pragma_journal_mode, pragma_synchronous,
			pragma_busy_timeout, pragma_foreign_keys`).Scan(&journal, &sync, &busy, &fk)
		if err != nil {
			t.Fatal(err)
		}
		if journal != "wal" || sync != 2 || busy != 5000 || fk != 1 {
			t.Errorf("connection %d: journal_mode %s, synchronous %d, busy_timeout %d, foreign_keys %d; want wal, 2 (FULL), 5000, 1",
				i, journal, sync, busy, fk)
		}
	}
	_, err := s.db.Exec(`INSERT INTO attachments (conversation_id, server, account, uri, origin,
		template, title, added_at, pinned, annotations, position)
		VALUES (404, '{"name":"mem"}', '', 'mem://x', 'list', '', '', '', 0, '{}', 1)`)
	if err == nil {
		t.Error("an attachment of a missing conversation was stored: foreign keys are off")
	}
}

func TestOpenCreatesPrivateDirectoryAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := DefaultPath(dir)
	openTest(t, path)
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v; want %v", p, fi.Mode(), want)
		}
	}
}

func TestDefaultPathIsNotTheCache(t *testing.T) {
	got := DefaultPath("/data")
	if got != filepath.Join("/data", "state.db") || filepath.Base(got) == "cache.db" {
		t.Errorf("DefaultPath(/data) = %s; want /data/state.db, apart from the cache", got)
	}
}

// TestOpenRefusesDamagedFile: the file is the person's data, so a file
// that is not sound is refused with an error naming it, and left exactly
// as it was: not moved aside, not recreated, and refused again next time.
func TestOpenRefusesDamagedFile(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
		want   error
	}{
		{"not a database", func(t *testing.T, path string) {
			writeFile(t, path, bytes.Repeat([]byte("this is not a database\n"), 500))
		}, ErrCorrupt},
		{"damaged page", damagePage, ErrCorrupt},
		{"newer schema", func(t *testing.T, path string) {
			s := openTest(t, path)
			if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, ErrNewerSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := DefaultPath(dir)
			tt.damage(t, path)
			before := readFile(t, path)
			for i := range 2 {
				s, err := Open(path, nil)
				if err == nil {
					s.Close()
					t.Fatal("Open succeeded on a damaged file")
				}
				if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), path) {
					t.Errorf("Open: %v; want an error wrapping %q that names %s", err, tt.want, path)
				}
				if i == 0 {
					t.Log(err)
				}
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Error("Open changed the damaged file")
			}
			// state.db.clean is the record of the last clean close (see
			// sqlitefile.Session); it is what lets an open skip the check.
			names := slices.DeleteFunc(dirNames(t, dir), func(n string) bool { return n == "state.db.clean" })
			if !slices.Equal(names, []string{"state.db"}) {
				t.Errorf("the directory holds %v; want the damaged file alone", names)
			}
		})
	}
}

// damagePage writes a store whose attachments fill several pages, then
// overwrites one of its b-tree pages with noise.
func damagePage(t *testing.T, path string) {
	s := openTest(t, path)
	c := newConversation(t, s, "big")
	for i := range 200 {
		a := attachment(c.ID, "mem://"+strings.Repeat("x", 100)+string(rune('a'+i%26))+time.Duration(i).String())
		mustAdd(t, s, a)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b := readFile(t, path)
	if len(b) < 5*4096 {
		t.Fatalf("the file has %d bytes; want several pages", len(b))
	}
	copy(b[3*4096:4*4096], bytes.Repeat([]byte{0xA5, 0x5A, 0x00, 0xFF}, 1024))
	writeFile(t, path, b)
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dirNames lists dir, leaving out the -wal and -shm files SQLite may
// create beside a database it opens.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), "-wal") && !strings.HasSuffix(e.Name(), "-shm") {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestCloseTwice(t *testing.T) {
	s := openTest(t, "")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v; want nil", err)
	}
	if _, err := s.Conversations(context.Background()); err == nil {
		t.Error("Conversations after Close succeeded")
	}
}
