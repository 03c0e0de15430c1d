package cache

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeGoodFile writes a cache with 200 entries of about 2 KiB to path,
// closes it, and returns its bytes.
func writeGoodFile(t *testing.T, path string) []byte {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		mustPut(t, s, public(fmt.Sprint("mem://", i), strings.Repeat(fmt.Sprint(i), 600)))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// overwritePages returns good with n whole 4 KiB pages, a third of the way
// in, replaced by random bytes.
func overwritePages(good []byte, n int) []byte {
	bad := bytes.Clone(good)
	start := len(bad) / 4096 / 3 * 4096
	copy(bad[start:], randomBytes(7, n*4096))
	return bad
}

// unusableFiles are files Open must move aside, each made from a good
// cache file's bytes.
var unusableFiles = []struct {
	name string
	make func(t *testing.T, good []byte) []byte
}{
	{"garbage", func(*testing.T, []byte) []byte { return randomBytes(1, 64<<10) }},
	{"text", func(*testing.T, []byte) []byte { return bytes.Repeat([]byte("not a database\n"), 1000) }},
	{"truncated", func(_ *testing.T, good []byte) []byte { return good[:len(good)/2] }},
	{"pages overwritten", func(_ *testing.T, good []byte) []byte { return overwritePages(good, 4) }},
	{"newer schema", func(t *testing.T, good []byte) []byte {
		path := filepath.Join(t.TempDir(), "newer.db")
		os.WriteFile(path, good, 0o600)
		db, err := sql.Open("sqlite3", dsn(path))
		if err == nil {
			_, err = db.Exec(`PRAGMA user_version = 99`)
			db.Close()
		}
		b, rerr := os.ReadFile(path)
		if err := errors.Join(err, rerr); err != nil {
			t.Fatal(err)
		}
		return b
	}},
}

func TestOpenMovesUnusableFileAside(t *testing.T) {
	good := writeGoodFile(t, filepath.Join(t.TempDir(), "good.db"))
	for _, tt := range unusableFiles {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache.db")
			bad := tt.make(t, good)
			staleWAL := []byte("a write-ahead log that belongs to the bad file")
			for name, b := range map[string][]byte{path: bad, path + "-wal": staleWAL} {
				if err := os.WriteFile(name, b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c := newClock()
			var log bytes.Buffer
			s, err := Open(path, &Options{Now: c.Now, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			if err != nil {
				t.Fatalf("Open = %v; want a fresh store", err)
			}
			defer s.Close()
			aside := fmt.Sprintf("%s.corrupt-%d", path, c.Now().Unix())
			if got, err := os.ReadFile(aside); err != nil || !bytes.Equal(got, bad) {
				t.Errorf("%s: %d bytes, %v; want the %d bytes moved aside", filepath.Base(aside), len(got), err, len(bad))
			}
			// SQLite may discard a log it cannot use; if not, the log
			// goes aside with its file. It must never stay beside the
			// new one, which would replay it.
			if got, _ := os.ReadFile(path + "-wal"); bytes.Equal(got, staleWAL) {
				t.Error("the bad file's write-ahead log stayed beside the new file")
			}
			if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), aside) {
				t.Errorf("log %q; want a warning naming %s", log.String(), aside)
			}
			t.Log(log.String())
			mustPut(t, s, public("u", "v"))
			if got := value(t, s, readKey("u"), ""); got != "v" {
				t.Errorf("the fresh store answered %q; want v", got)
			}
			if st, _ := s.Stats(context.Background(), Filter{}); st.Entries != 1 {
				t.Errorf("the fresh store holds %d entries; want only the new one", st.Entries)
			}
			if err := s.Check(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestOpenKeepsHealthyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	writeGoodFile(t, path)
	var log bytes.Buffer
	s, err := Open(path, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if aside, _ := filepath.Glob(path + ".corrupt-*"); len(aside) != 0 || log.Len() != 0 {
		t.Errorf("a healthy file was moved aside: %v, log %q", aside, log.String())
	}
	if got := value(t, s, readKey("mem://7"), ""); got != strings.Repeat("7", 600) {
		t.Errorf("Get of an old entry = %.20q...; want it intact", got)
	}
}

// TestMoveAsideKeepsEarlierCopies corrupts the file twice within one
// second: the second copy must not overwrite the first.
func TestMoveAsideKeepsEarlierCopies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	c := newClock()
	for i := range 2 {
		if err := os.WriteFile(path, randomBytes(uint64(i), 8192), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, &Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	base := fmt.Sprintf("%s.corrupt-%d", path, c.Now().Unix())
	for i, name := range []string{base, base + "-1"} {
		if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, randomBytes(uint64(i), 8192)) {
			t.Errorf("%s: %v; want the copy of corruption %d", filepath.Base(name), err, i)
		}
	}
}

func TestOpenMovesAsideFileItCannotRead(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	path := filepath.Join(t.TempDir(), "cache.db")
	writeGoodFile(t, path)
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open = %v; want a fresh store", err)
	}
	defer s.Close()
	if aside, _ := filepath.Glob(path + ".corrupt-*"); len(aside) != 1 {
		t.Errorf("moved aside: %v; want one file", aside)
	}
}

// TestCheckFindsCorruption proves Check is no formality: it fails on
// broken pages and on size accounting that does not add up.
func TestCheckFindsCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, overwritePages(writeGoodFile(t, filepath.Join(dir, "good.db")), 4), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", dsn(bad))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := pragmaCheck(ctx, db, "integrity_check"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("integrity_check of overwritten pages = %v; want ErrCorrupt", err)
	}

	s := openStore(t, nil)
	mustPut(t, s, public("u", "v"))
	if _, err := s.db.Exec(`UPDATE totals SET bytes = bytes + 1`); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "size accounting") {
		t.Errorf("Check with a wrong total = %v; want ErrCorrupt about size accounting", err)
	}
}
