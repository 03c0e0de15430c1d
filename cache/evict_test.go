package cache

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEvictsLeastRecentlyUsed fills a 300-byte store with 100-byte values
// and reads some of them: eviction must follow the reads, including reads
// answered by the memory tier, which reach SQLite only at the next write.
func TestEvictsLeastRecentlyUsed(t *testing.T) {
	c := newClock()
	inTiers(t, &Options{MaxBytes: 300, Now: c.Now}, func(t *testing.T, s *Store) {
		v := strings.Repeat("x", 100)
		for _, uri := range []string{"A", "B", "C"} {
			c.Advance(time.Second)
			mustPut(t, s, public(uri, v))
		}
		c.Advance(time.Second)
		value(t, s, readKey("A"), "") // from SQLite: A at t4
		c.Advance(time.Second)
		value(t, s, readKey("B"), "") // B at t5
		c.Advance(time.Second)
		value(t, s, readKey("A"), "") // from memory, with the tier: A at t6
		c.Advance(time.Second)
		mustPut(t, s, public("D", v)) // evicts C (t3)
		c.Advance(time.Second)
		mustPut(t, s, public("E", v)) // evicts B (t5), if A's t6 was recorded
		present := map[string]bool{}
		for _, uri := range []string{"A", "B", "C", "D", "E"} {
			present[uri] = value(t, s, readKey(uri), "") != ""
		}
		want := map[string]bool{"A": true, "B": false, "C": false, "D": true, "E": true}
		if fmt.Sprint(present) != fmt.Sprint(want) {
			t.Errorf("present after eviction: %v; want %v", present, want)
		}
	})
}

// TestSizeBoundHolds puts values of random sizes, over and over, into a
// small store: the total never exceeds the bound, the newest entry always
// survives its own Put, and the running total stays exact.
func TestSizeBoundHolds(t *testing.T) {
	const max = 10_000
	c := newClock()
	s := openStore(t, &Options{MaxBytes: max, Now: c.Now})
	r := rand.New(rand.NewPCG(4, 2))
	ctx := context.Background()
	for i := range 500 {
		c.Advance(time.Millisecond)
		uri := fmt.Sprintf("mem://%d", r.IntN(40))
		v := strings.Repeat("v", r.IntN(max)+1)
		mustPut(t, s, public(uri, v))
		if got := value(t, s, readKey(uri), ""); got != v {
			t.Fatalf("put %d: the entry just put is gone", i)
		}
		st, err := s.Stats(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Bytes > max {
			t.Fatalf("put %d: %d bytes stored; the bound is %d", i, st.Bytes, max)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestAccessTimesReachFile reads an entry from memory and closes the store:
// the time of that read must reach the file by the next write, where
// eviction looks for it, and eviction in a later process must follow it.
func TestAccessTimesReachFile(t *testing.T) {
	c := newClock()
	path := filepath.Join(t.TempDir(), "cache.db")
	v := strings.Repeat("x", 100)
	s, err := Open(path, &Options{Now: c.Now, MaxBytes: 200})
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, public("A", v))
	c.Advance(time.Second)
	mustPut(t, s, public("B", v))
	value(t, s, readKey("A"), "")
	read := c.Advance(time.Hour)
	value(t, s, readKey("A"), "") // a memory hit: A is now the most recent
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Second)
	s, err = Open(path, &Options{Now: c.Now, MaxBytes: 200})
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, public("C", v)) // evicts B, if A's hit was kept
	present := map[string]bool{}
	for _, uri := range []string{"A", "B", "C"} {
		present[uri] = value(t, s, readKey(uri), "") != ""
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"A": true, "B": false, "C": true}; fmt.Sprint(present) != fmt.Sprint(want) {
		t.Errorf("present after eviction in the next process: %v; want %v", present, want)
	}
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got int64
	if err := db.QueryRow(`SELECT last_access FROM entries WHERE param = ?`, readKey("A").Param).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got < read.UnixNano() {
		t.Errorf("last_access in the file = %v; want at least %v, the memory hit", time.Unix(0, got).UTC(), read)
	}
}

// TestAccessFileDamaged puts garbage, and then a file far past its bound,
// where the access times go: a write still succeeds, logs it, and leaves
// the access file empty.
func TestAccessFileDamaged(t *testing.T) {
	c := newClock()
	path := filepath.Join(t.TempDir(), "cache.db")
	for _, junk := range []string{"not json\n[1,2]\n[\"a\",\"b\",\"c\",\"d\",\"e\",-4]\n", strings.Repeat("x", 5*maxAccessFileBytes)} {
		if err := os.WriteFile(path+".access", []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, &Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		c.Advance(time.Second)
		mustPut(t, s, public("A", "a"))
		if got := value(t, s, readKey("A"), ""); got != "a" {
			t.Errorf("value after a put beside a damaged access file = %q; want a", got)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if n := (accessFile{path + ".access"}).size(); n != 0 {
			t.Errorf("the access file holds %d bytes after a write; want 0", n)
		}
	}
}
