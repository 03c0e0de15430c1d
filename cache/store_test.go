package cache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is an injectable clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d and returns the new time.
func (c *clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// tiers runs a test with the memory tier on and off: every rule must hold
// in both.
var tiers = []struct {
	name          string
	memoryEntries int
}{{"memory", 0}, {"sqlite", -1}}

// inTiers runs test once per tier, each time on a fresh store opened with
// opts and the tier's MemoryEntries.
func inTiers(t *testing.T, opts *Options, test func(t *testing.T, s *Store)) {
	for _, tier := range tiers {
		t.Run(tier.name, func(t *testing.T) {
			var o Options
			if opts != nil {
				o = *opts
			}
			o.MemoryEntries = tier.memoryEntries
			test(t, openStore(t, &o))
		})
	}
}

func openStore(tb testing.TB, opts *Options) *Store {
	tb.Helper()
	s, err := Open(filepath.Join(tb.TempDir(), "cache.db"), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func readKey(uri string) Key {
	return Key{Server: "https://mem.example/mcp", Method: "resources/read", Param: uri}
}

func public(uri, value string) Entry {
	return Entry{Key: readKey(uri), Scope: Public, Value: []byte(value)}
}

func private(uri, account, value string) Entry {
	return Entry{Key: readKey(uri), Scope: Private, Account: account, Value: []byte(value)}
}

// privateAs is a private entry in partition stored by the account name.
func privateAs(uri, partition, name, value string) Entry {
	e := private(uri, partition, value)
	e.AccountName = name
	return e
}

func mustPut(tb testing.TB, s *Store, e Entry) {
	tb.Helper()
	if err := s.Put(context.Background(), e); err != nil {
		tb.Fatal(err)
	}
}

// value returns what Get tells account for key, or "" for a miss.
func value(tb testing.TB, s *Store, key Key, account string) string {
	tb.Helper()
	e, ok, err := s.Get(context.Background(), key, account)
	if err != nil {
		tb.Fatal(err)
	}
	if !ok {
		return ""
	}
	return string(e.Value)
}

func TestPutGetRoundTrip(t *testing.T) {
	inTiers(t, nil, func(t *testing.T, s *Store) {
		put := Entry{Key: Key{"stdio:3f2a", "resources/list", "cursor-2"}, Scope: Private, Account: "acme",
			Value: []byte(`{"resources":[]}`), StoredAt: time.Date(2026, 7, 1, 9, 30, 0, 123456789, time.UTC), TTL: 90 * time.Second}
		mustPut(t, s, put)
		want := put
		want.Size = int64(len(put.Value))
		for range 2 { // from SQLite, then (with the tier) from memory
			got, ok, err := s.Get(context.Background(), put.Key, "acme")
			if err != nil || !ok {
				t.Fatalf("Get = %v, %v; want the entry", ok, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get mismatch (-want +got):\n%s", diff)
			}
		}
	})
}

func TestPrivateBeforePublic(t *testing.T) {
	inTiers(t, nil, func(t *testing.T, s *Store) {
		k := readKey("mem://1")
		mustPut(t, s, public("mem://1", "shared"))
		mustPut(t, s, private("mem://1", "acme", "acme's"))
		for range 2 { // the second round answers from memory
			for account, want := range map[string]string{"acme": "acme's", "globex": "shared", "": "shared"} {
				if got := value(t, s, k, account); got != want {
					t.Errorf("Get for %q = %q; want %q", account, got, want)
				}
			}
		}
		// globex was answered "shared" from memory; its own private
		// entry must now take precedence.
		mustPut(t, s, private("mem://1", "globex", "globex's"))
		if got := value(t, s, k, "globex"); got != "globex's" {
			t.Errorf("after globex's Put, Get for globex = %q; want globex's", got)
		}
	})
}

func TestValuesAreCopies(t *testing.T) {
	inTiers(t, nil, func(t *testing.T, s *Store) {
		k := readKey("mem://1")
		in := []byte("original")
		mustPut(t, s, Entry{Key: k, Scope: Public, Value: in})
		copy(in, "MUTATED!")
		for i := range 3 { // SQLite read, then memory hits
			e, ok, err := s.Get(context.Background(), k, "")
			if err != nil || !ok {
				t.Fatalf("Get %d = %v, %v", i, ok, err)
			}
			if string(e.Value) != "original" {
				t.Fatalf("Get %d = %q; want original", i, e.Value)
			}
			copy(e.Value, "CHANGED!")
		}
	})
}

func TestPutRejects(t *testing.T) {
	long := time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		entry Entry
		want  error
	}{
		{"no server", Entry{Key: Key{Method: "resources/read"}, Scope: Public}, ErrInvalidEntry},
		{"no method", Entry{Key: Key{Server: "s"}, Scope: Public}, ErrInvalidEntry},
		{"no scope", Entry{Key: readKey("u")}, ErrInvalidEntry},
		{"unknown scope", Entry{Key: readKey("u"), Scope: "shared"}, ErrInvalidEntry},
		{"public with account", Entry{Key: readKey("u"), Scope: Public, Account: "acme"}, ErrInvalidEntry},
		{"public with account name", Entry{Key: readKey("u"), Scope: Public, AccountName: "acme"}, ErrInvalidEntry},
		{"private without account", Entry{Key: readKey("u"), Scope: Private}, ErrInvalidEntry},
		{"negative ttl", Entry{Key: readKey("u"), Scope: Public, TTL: -time.Second}, ErrInvalidEntry},
		{"time out of range", Entry{Key: readKey("u"), Scope: Public, StoredAt: long}, ErrInvalidEntry},
		{"too large", Entry{Key: readKey("u"), Scope: Public, Value: make([]byte, 1025)}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t, &Options{MaxBytes: 1024})
			mustPut(t, s, public("u", "before"))
			err := s.Put(context.Background(), tt.entry)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Put = %v; want %v", err, tt.want)
			}
			st, err := s.Stats(context.Background(), Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if st.Entries != 1 || value(t, s, readKey("u"), "") != "before" {
				t.Errorf("after a refused Put: %d entries, value %q; want the earlier entry alone",
					st.Entries, value(t, s, readKey("u"), ""))
			}
		})
	}
}

func TestRepeatGetsHitMemory(t *testing.T) {
	inTiers(t, nil, func(t *testing.T, s *Store) {
		mustPut(t, s, public("mem://1", "v"))
		for range 3 {
			value(t, s, readKey("mem://1"), "acme")
		}
		value(t, s, readKey("mem://2"), "acme")
		st, err := s.Stats(context.Background(), Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want := Stats{Hits: 3, Misses: 1}
		if s.mem != nil {
			want.MemoryHits = 2
		}
		got := Stats{Hits: st.Hits, MemoryHits: st.MemoryHits, Misses: st.Misses}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("counters (-want +got):\n%s", diff)
		}
	})
}

func TestStats(t *testing.T) {
	s := openStore(t, &Options{MaxBytes: 1 << 20})
	mustPut(t, s, public("a", "12345"))
	mustPut(t, s, privateAs("a", "fp-1", "acme", "123"))
	mustPut(t, s, privateAs("b", "fp-1", "acme", "1"))
	mustPut(t, s, privateAs("a", "fp-2", "globex", "12"))
	other := privateAs("a", "fp-1", "acme", "1234")
	other.Key.Server = "https://other.example/mcp"
	mustPut(t, s, other)
	base := Stats{MaxBytes: 1 << 20, Path: s.path}
	tests := []struct {
		name   string
		filter Filter
		want   Stats
	}{
		{"all", Filter{}, Stats{Entries: 5, Bytes: 15, Public: 1, Private: 4, ByAccount: map[string]int{"acme": 3, "globex": 1}}},
		{"server", Filter{Server: readKey("").Server}, Stats{Entries: 4, Bytes: 11, Public: 1, Private: 3, ByAccount: map[string]int{"acme": 2, "globex": 1}}},
		{"partition", Filter{Account: "fp-1"}, Stats{Entries: 3, Bytes: 8, Private: 3, ByAccount: map[string]int{"acme": 3}}},
		{"name", Filter{AccountName: "acme"}, Stats{Entries: 3, Bytes: 8, Private: 3, ByAccount: map[string]int{"acme": 3}}},
		{"name and server", Filter{Server: readKey("").Server, AccountName: "globex"}, Stats{Entries: 1, Bytes: 2, Private: 1, ByAccount: map[string]int{"globex": 1}}},
		{"private", Filter{PrivateOnly: true}, Stats{Entries: 4, Bytes: 10, Private: 4, ByAccount: map[string]int{"acme": 3, "globex": 1}}},
		{"a partition is not a name", Filter{AccountName: "fp-1"}, Stats{ByAccount: map[string]int{}}},
		{"a name is not a partition", Filter{Account: "acme"}, Stats{ByAccount: map[string]int{}}},
		{"name of another partition", Filter{Account: "fp-2", AccountName: "acme"}, Stats{ByAccount: map[string]int{}}},
		{"none", Filter{AccountName: "initech"}, Stats{ByAccount: map[string]int{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Stats(context.Background(), tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.MaxBytes, tt.want.Path = base.MaxBytes, base.Path
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Stats(%v) (-want +got):\n%s", tt.filter, diff)
			}
		})
	}
}

func TestClosedStore(t *testing.T) {
	s := openStore(t, nil)
	mustPut(t, s, public("u", "v"))
	value(t, s, readKey("u"), "") // now in memory too
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, _, getErr := s.Get(ctx, readKey("u"), "")
	_, delErr := s.Delete(ctx, readKey("u"))
	_, statErr := s.Stats(ctx, Filter{})
	for name, err := range map[string]error{
		"Get": getErr, "Put": s.Put(ctx, public("u", "v")), "Delete": delErr, "Stats": statErr, "Check": s.Check(ctx),
	} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close = %v; want ErrClosed", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir", "odd?name#1%20.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, public("u", "v"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the file is not at the path given: %v", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v; want 0600, the cache holds private bodies", fi.Mode().Perm())
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := value(t, s, readKey("u"), ""); got != "v" {
		t.Errorf("after reopening, Get = %q; want v", got)
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CACHE_HOME steers os.UserCacheDir on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", "/xdg/cache")
	got, err := DefaultPath()
	if err != nil || got != "/xdg/cache/attache/cache.db" {
		t.Errorf("DefaultPath = %q, %v; want /xdg/cache/attache/cache.db", got, err)
	}
}

// FuzzPutGet feeds odd keys and values through a Put and a Get: nothing
// panics, and whatever is stored comes back byte for byte, to its own
// account only.
func FuzzPutGet(f *testing.F) {
	f.Add("srv", "resources/read", "mem://1", "acme", []byte("v"), int64(1))
	f.Add("s\x00v", "m\xff", "", "\x00", []byte{}, int64(-1))
	f.Add("", "", "", "", []byte(nil), int64(0))
	s := openStore(f, &Options{MaxBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, server, method, param, account string, v []byte, ttl int64) {
		scope := Public
		if account != "" {
			scope = Private
		}
		e := Entry{Key: Key{server, method, param}, Scope: scope, Account: account, Value: v, TTL: time.Duration(ttl)}
		if err := s.Put(context.Background(), e); err != nil {
			if !errors.Is(err, ErrInvalidEntry) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Put = %v; want success, ErrInvalidEntry or ErrTooLarge", err)
			}
			return
		}
		got, ok, err := s.Get(context.Background(), e.Key, account)
		if err != nil || !ok || !bytes.Equal(got.Value, v) || got.Account != account {
			t.Fatalf("Get = %+v, %v, %v; want the value just put", got, ok, err)
		}
		if account != "" {
			if got, ok, _ := s.Get(context.Background(), e.Key, account+"x"); ok && got.Scope == Private && got.Account != account+"x" {
				t.Fatalf("%q's private entry served to %q", account, account+"x")
			}
		}
	})
}

// TestAccountNameFilterIsExact: a purge by name takes that name's entries
// and nothing of a name it is a prefix of, or that differs only in case,
// from SQLite and from the memory tier alike.
func TestAccountNameFilterIsExact(t *testing.T) {
	names := []string{"alice", "alice@example.com", "alicex", "Alice", "alicé", "al%"}
	inTiers(t, nil, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for i, name := range names {
			mustPut(t, s, privateAs("mem://1", fmt.Sprintf("fp-%d", i), name, name+"'s"))
		}
		mustPut(t, s, public("mem://1", "shared"))
		for i := range names { // into the memory tier
			value(t, s, readKey("mem://1"), fmt.Sprintf("fp-%d", i))
		}
		for name, want := range map[string]int{"alice": 1, "alice@": 0, "al": 0, "al%": 1, "ALICE": 0} {
			if st, err := s.Stats(ctx, Filter{AccountName: name}); err != nil || st.Entries != want {
				t.Errorf("Stats(name %q) = %d entries, %v; want %d", name, st.Entries, err, want)
			}
		}
		if n, err := s.Purge(ctx, Filter{AccountName: "alice"}); n != 1 || err != nil {
			t.Fatalf("Purge(name alice) = %d, %v; want 1", n, err)
		}
		for i, name := range names {
			want := name + "'s"
			if name == "alice" {
				want = "shared"
			}
			if got := value(t, s, readKey("mem://1"), fmt.Sprintf("fp-%d", i)); got != want {
				t.Errorf("after purging alice, %s's partition sees %q; want %q", name, got, want)
			}
		}
	})
}

// TestNamesShareAPartition: two account names with one authorization
// context share its partition on purpose. Each sees what the other stored;
// a Put by one replaces the other's entry for that key, label and all; a
// purge by name takes the entries carrying that name, a purge by partition
// takes them all.
func TestNamesShareAPartition(t *testing.T) {
	inTiers(t, nil, func(t *testing.T, s *Store) {
		ctx := context.Background()
		mustPut(t, s, privateAs("mem://1", "fp", "alice", "read by alice"))
		mustPut(t, s, privateAs("mem://2", "fp", "bob", "read by bob"))
		mustPut(t, s, privateAs("mem://3", "fp", "alice", "alice's 3"))
		got, ok, err := s.Get(ctx, readKey("mem://2"), "fp")
		if err != nil || !ok || string(got.Value) != "read by bob" || got.AccountName != "bob" {
			t.Fatalf("Get(mem://2, fp) = %+v, %v, %v; want bob's entry, labelled bob", got, ok, err)
		}
		mustPut(t, s, privateAs("mem://3", "fp", "bob", "bob's 3"))
		st, err := s.Stats(ctx, Filter{})
		if want := map[string]int{"alice": 1, "bob": 2}; err != nil || st.Private != 3 || !cmp.Equal(st.ByAccount, want) {
			t.Fatalf("Stats = %d private by %v, %v; want 3 by %v (bob's Put replaced alice's mem://3)",
				st.Private, st.ByAccount, err, want)
		}
		if n, err := s.Purge(ctx, Filter{AccountName: "alice"}); n != 1 || err != nil {
			t.Errorf("Purge(name alice) = %d, %v; want 1", n, err)
		}
		if got := value(t, s, readKey("mem://2"), "fp"); got != "read by bob" {
			t.Errorf("after purging alice, fp sees %q at mem://2; want bob's entry kept", got)
		}
		if n, err := s.Purge(ctx, Filter{Account: "fp"}); n != 2 || err != nil {
			t.Errorf("Purge(partition fp) = %d, %v; want bob's 2", n, err)
		}
	})
}
