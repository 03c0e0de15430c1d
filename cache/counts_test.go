package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const counterA, counterB = "cl100k_base tiktoken-go v0.1.8 pack/1", "o200k_base tiktoken-go v0.1.8 pack/1"

func countOf(counter, text string, tokens int) Count {
	return Count{Counter: counter, Subject: sha256.Sum256([]byte(text)), Tokens: tokens}
}

// getCount is s.Count, failing the test on an error.
func getCount(t *testing.T, s *Store, key Key, account, counter string) (Count, bool) {
	t.Helper()
	c, ok, err := s.Count(context.Background(), key, account, counter)
	if err != nil {
		t.Fatal(err)
	}
	return c, ok
}

// TestCountKeptWithEntry stores counts by two counters with an entry, and
// reads them back from another Store on the file, as the next process
// would: each counter has its own, and a partition sees the count of the
// entry Get gives it, never another partition's.
func TestCountKeptWithEntry(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{public("mem://1", "shared body"), private("mem://1", "acme", "acme's body")} {
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	shared, acme := countOf(counterA, "shared", 3), countOf(counterA, "acme's", 5)
	for _, p := range []struct {
		account string
		c       Count
	}{{"", shared}, {"acme", acme}, {"acme", countOf(counterB, "acme's", 4)}} {
		if err := s.PutCount(ctx, readKey("mem://1"), p.account, p.c); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	next, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	for _, tt := range []struct {
		account, counter string
		want             Count
	}{
		{"", counterA, shared}, {"globex", counterA, shared}, // the public entry's
		{"acme", counterA, acme}, {"acme", counterB, countOf(counterB, "acme's", 4)},
	} {
		if got, ok := getCount(t, next, readKey("mem://1"), tt.account, tt.counter); !ok || got != tt.want {
			t.Errorf("Count(%q, %q) = %+v, %v; want %+v", tt.account, tt.counter, got, ok, tt.want)
		}
	}
	if c, ok := getCount(t, next, readKey("mem://1"), "globex", counterB); ok {
		t.Errorf("globex sees %+v by %s: the public entry has no such count, and acme's is not its", c, counterB)
	}
	if c, ok := getCount(t, next, readKey("mem://2"), "", counterA); ok {
		t.Errorf("an entry never stored has the count %+v", c)
	}
}

// TestCountGoesWithEntry: a count lives as long as its entry and its
// value. Replacing the value, deleting, purging or evicting the entry
// takes its counts; storing the same value again keeps them; a count for
// an entry that is not there is not stored.
func TestCountGoesWithEntry(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, &Options{MaxBytes: 64})
	key := readKey("mem://1")
	put := func(e Entry) {
		t.Helper()
		if err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
		if err := s.PutCount(ctx, e.Key, e.Account, countOf(counterA, string(e.Value), 7)); err != nil {
			t.Fatal(err)
		}
	}
	put(public("mem://1", "first"))
	if err := s.Put(ctx, public("mem://1", "first")); err != nil {
		t.Fatal(err)
	}
	if _, ok := getCount(t, s, key, "", counterA); !ok {
		t.Error("storing the same value again dropped its count")
	}
	if err := s.Put(ctx, public("mem://1", "second")); err != nil {
		t.Fatal(err)
	}
	if c, ok := getCount(t, s, key, "", counterA); ok {
		t.Errorf("the count of the old value survived a new one: %+v", c)
	}
	put(public("mem://1", "second"))
	if _, err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	put(private("mem://2", "acme", "private"))
	if _, err := s.Purge(ctx, Filter{Account: "acme"}); err != nil {
		t.Fatal(err)
	}
	put(public("mem://3", "older"))
	put(public("mem://4", strings.Repeat("x", 60))) // evicts mem://3
	if err := s.PutCount(ctx, readKey("mem://5"), "", countOf(counterA, "none", 1)); err != nil {
		t.Errorf("PutCount with no entry = %v; want nil, storing nothing", err)
	}
	var orphans, left int
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM counts WHERE entry NOT IN (SELECT id FROM entries)),
		(SELECT count(*) FROM counts)`).Scan(&orphans, &left)
	if err != nil || orphans != 0 || left != 1 {
		t.Errorf("counts left: %d without an entry, %d in all, %v; want 0 and 1 (mem://4's)", orphans, left, err)
	}
}

// TestDamagedCountNotTrusted changes a stored count on disk, in each of
// its fields, and moves one to another entry: none is returned (the caller
// counts again), each is removed, with a warning, and a new count stores.
func TestDamagedCountNotTrusted(t *testing.T) {
	ctx := context.Background()
	for _, damage := range []string{
		`UPDATE counts SET tokens = tokens + 1`,
		`UPDATE counts SET subject = zeroblob(32)`,
		`UPDATE counts SET seal = zeroblob(32)`,
		`UPDATE counts SET entry = (SELECT id FROM entries WHERE param = 'mem://2')`,
	} {
		t.Run(damage, func(t *testing.T) {
			var log bytes.Buffer
			s := openStore(t, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
			for _, e := range []Entry{public("mem://1", "one"), public("mem://2", "two")} {
				if err := s.Put(ctx, e); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.PutCount(ctx, readKey("mem://1"), "", countOf(counterA, "one", 1)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.ExecContext(ctx, damage); err != nil {
				t.Fatal(err)
			}
			for _, uri := range []string{"mem://1", "mem://2"} {
				if c, ok := getCount(t, s, readKey(uri), "", counterA); ok {
					t.Errorf("%s: a damaged count was returned: %+v", uri, c)
				}
			}
			var n int
			if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM counts`).Scan(&n); err != nil || n != 0 {
				t.Errorf("%d counts left after reading a damaged one, %v; want it removed", n, err)
			}
			if !strings.Contains(log.String(), "token count") {
				t.Errorf("removing a damaged count logged %q; want a warning", log.String())
			}
			want := countOf(counterA, "one", 2)
			if err := s.PutCount(ctx, readKey("mem://1"), "", want); err != nil {
				t.Fatal(err)
			}
			if got, ok := getCount(t, s, readKey("mem://1"), "", counterA); !ok || got != want {
				t.Errorf("after a recount, Count = %+v, %v; want %+v", got, ok, want)
			}
		})
	}
}

// TestPutCountRefusesBadCount: a negative count or a nameless counter is
// invalid input, and stores nothing.
func TestPutCountRefusesBadCount(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, nil)
	if err := s.Put(ctx, public("mem://1", "one")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Count{countOf(counterA, "one", -1), countOf("", "one", 1)} {
		if err := s.PutCount(ctx, readKey("mem://1"), "", c); err == nil {
			t.Errorf("PutCount(%+v) = nil; want ErrInvalidEntry", c)
		}
	}
	if c, ok := getCount(t, s, readKey("mem://1"), "", counterA); ok {
		t.Errorf("a refused count was stored: %+v", c)
	}
}

// TestMigrateFromVersion4 migrates a file of version 4, the last before
// counts: its entries stay, with their values and digests, and have no
// count until one is stored.
func TestMigrateFromVersion4(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	db := migrateFile(t, path, 4)
	stored := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	_, err := db.ExecContext(ctx, `INSERT INTO entries
		(server, method, param, scope, account, account_name, value, digest, stored_at, ttl, size, last_access)
		VALUES (?, ?, ?, 'public', '', '', ?, ?, ?, ?, ?, ?)`, readKey("mem://1").Server, "resources/read", "mem://1",
		[]byte("kept"), digestOf([]byte("kept")), stored.UnixNano(), int64(time.Hour), 4, stored.UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openMigrated(t, path)
	if got := value(t, s, readKey("mem://1"), ""); got != "kept" {
		t.Errorf("after the migration the entry reads %q; want %q", got, "kept")
	}
	if c, ok := getCount(t, s, readKey("mem://1"), "", counterA); ok {
		t.Errorf("a migrated entry has the count %+v; it was never counted", c)
	}
	want := countOf(counterA, "kept", 1)
	if err := s.PutCount(ctx, readKey("mem://1"), "", want); err != nil {
		t.Fatal(err)
	}
	if got, ok := getCount(t, s, readKey("mem://1"), "", counterA); !ok || got != want {
		t.Errorf("Count after the migration = %+v, %v; want %+v", got, ok, want)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
