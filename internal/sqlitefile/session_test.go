package sqlitefile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSessionChecksWhenDue: quick_check runs on the first open, after an
// unclean shutdown, after the file changed behind the sessions' backs and
// on schedule; not after a clean close, nor while another session has the
// file open.
func TestSessionChecksWhenDue(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	opts := &SessionOptions{Now: func() time.Time { return now }, CheckEvery: 24 * time.Hour}
	open := func(wantWhy string) (func(), *Session) {
		t.Helper()
		db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", steps, opts)
		if err != nil {
			t.Fatal(err)
		}
		if s.Checked != wantWhy {
			t.Errorf("checked %q; want %q", s.Checked, wantWhy)
		}
		return func() {
			t.Helper()
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.End(); err != nil {
				t.Fatal(err)
			}
		}, s
	}
	end, _ := open("the file is not as the last session left it") // never checked
	end()
	end, _ = open("")
	end2, _ := open("") // another session is live: it answers for the file
	end2()
	end()

	// A session that dies leaves its marker unlocked.
	db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", steps, opts)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	s.Leave()
	end, _ = open("a session ended uncleanly")
	end()
	end, _ = open("") // the stale marker went with the check
	end()

	// Something else wrote the file.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	end, _ = open("the file is not as the last session left it")
	end()

	now = now.Add(25 * time.Hour)
	end, _ = open("scheduled")
	end()
	end, _ = open("")
	end()
	if m, _ := filepath.Glob(path + ".open-*"); len(m) != 0 {
		t.Errorf("markers left behind: %v", m)
	}
}

// TestEndRewritesOnlyAChangedRecord: a session that wrote nothing leaves
// <path>.clean as it was (no write, no rename); one that wrote records the
// file's new size and time, and the next open finds it clean.
func TestEndRewritesOnlyAChangedRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	session := func(write bool) (checked string) {
		t.Helper()
		db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", steps, nil)
		if err != nil {
			t.Fatal(err)
		}
		if write {
			if _, err := db.Exec(`INSERT INTO a VALUES (NULL)`); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.End(); err != nil {
			t.Fatal(err)
		}
		return s.Checked
	}
	record := func() os.FileInfo {
		t.Helper()
		fi, err := os.Stat(path + ".clean")
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	session(false) // the first: checks, and writes the record
	before := record()
	session(false)
	if after := record(); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("a session that wrote nothing rewrote the record")
	}
	session(true)
	if after := record(); os.SameFile(before, after) {
		t.Error("a session that wrote kept the old record")
	}
	if why := session(false); why != "" {
		t.Errorf("the open after a session that wrote checked (%q); its record should say the file is as it left it", why)
	}
}
