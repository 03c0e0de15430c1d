package cache

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Invalidation fixtures: entries in every partition of one read, another
// read, two list pages and another server, and the questions that show
// which of them a Get still sees.
var (
	invServer    = readKey("").Server
	invElsewhere = Key{"https://other.example/mcp", "resources/read", "mem://1"}
	invEntries   = []Entry{
		private("mem://1", "acme", "acme's 1"), private("mem://1", "globex", "globex's 1"),
		public("mem://1", "public 1"), public("mem://2", "public 2"),
		{Key: invPage(""), Scope: Public, Value: []byte("page 1")}, {Key: invPage("c2"), Scope: Public, Value: []byte("page 2")},
		{Key: invElsewhere, Scope: Public, Value: []byte("elsewhere")},
	}
	invQueries = []struct {
		key     Key
		account string
	}{
		{readKey("mem://1"), "acme"}, {readKey("mem://1"), "globex"}, {readKey("mem://1"), ""},
		{readKey("mem://2"), "acme"}, {invPage(""), "acme"}, {invPage("c2"), "acme"}, {invElsewhere, "acme"},
	}
)

func invPage(cursor string) Key { return Key{invServer, "resources/list", cursor} }

// invAnswers asks every invalidation question, in order.
func invAnswers(t *testing.T, s *Store) []string {
	t.Helper()
	var got []string
	for _, q := range invQueries {
		got = append(got, value(t, s, q.key, q.account))
	}
	return got
}

// TestInvalidationReachesBothTiers fills both tiers, runs one invalidation
// and checks every answer: an answer left behind in memory would show up
// as a value where a miss (or the public entry) is wanted.
func TestInvalidationReachesBothTiers(t *testing.T) {
	all := []string{"acme's 1", "globex's 1", "public 1", "public 2", "page 1", "page 2", "elsewhere"}
	tests := []struct {
		name string
		op   func(*Store) (int, error)
		n    int
		want []string // answers to invQueries, in order
	}{
		{"Delete", func(s *Store) (int, error) { return s.Delete(context.Background(), readKey("mem://1")) },
			3, []string{"", "", "", "public 2", "page 1", "page 2", "elsewhere"}},
		{"DeleteMethod", func(s *Store) (int, error) { return s.DeleteMethod(context.Background(), invServer, "resources/list") },
			2, []string{"acme's 1", "globex's 1", "public 1", "public 2", "", "", "elsewhere"}},
		{"Purge account", func(s *Store) (int, error) {
			return s.Purge(context.Background(), Filter{Server: invServer, Account: "acme"})
		}, 1, []string{"public 1", "globex's 1", "public 1", "public 2", "page 1", "page 2", "elsewhere"}},
		{"Purge server", func(s *Store) (int, error) { return s.Purge(context.Background(), Filter{Server: invServer}) },
			6, []string{"", "", "", "", "", "", "elsewhere"}},
		{"Purge private", func(s *Store) (int, error) { return s.Purge(context.Background(), Filter{PrivateOnly: true}) },
			2, []string{"public 1", "public 1", "public 1", "public 2", "page 1", "page 2", "elsewhere"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inTiers(t, nil, func(t *testing.T, s *Store) {
				for _, e := range invEntries {
					mustPut(t, s, e)
				}
				invAnswers(t, s)
				if diff := cmp.Diff(all, invAnswers(t, s)); diff != "" { // the second round from memory
					t.Fatalf("before (-want +got):\n%s", diff)
				}
				n, err := tt.op(s)
				if err != nil || n != tt.n {
					t.Errorf("%s = %d, %v; want %d", tt.name, n, err, tt.n)
				}
				if diff := cmp.Diff(tt.want, invAnswers(t, s)); diff != "" {
					t.Errorf("after %s (-want +got):\n%s", tt.name, diff)
				}
			})
		})
	}
}

// TestGetRacingWriteDoesNotResurrect runs a write between a Get's SQLite
// read and its promotion to memory. The Get may return what it read, but
// the memory tier must not keep it.
func TestGetRacingWriteDoesNotResurrect(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		write func(*Store) error
		want  string
	}{
		{"Delete", func(s *Store) error { _, err := s.Delete(ctx, readKey("u")); return err }, ""},
		{"Put", func(s *Store) error { return s.Put(ctx, public("u", "new")) }, "new"},
		{"Purge", func(s *Store) error { _, err := s.Purge(ctx, Filter{}); return err }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t, nil)
			mustPut(t, s, public("u", "old"))
			s.testHookAfterRead = func() {
				s.testHookAfterRead = nil
				if err := tt.write(s); err != nil {
					t.Error(err)
				}
			}
			if got := value(t, s, readKey("u"), ""); got != "old" {
				t.Fatalf("racing Get = %q; want old, what it read", got)
			}
			if got := value(t, s, readKey("u"), ""); got != tt.want {
				t.Errorf("Get after the race = %q; want %q", got, tt.want)
			}
		})
	}
}

// TestOtherWritersAreSeen shares a file between two Stores, as the app and
// attachectl do: a purge or a put by one is seen by the other's first Get
// once otherWritersInterval has passed, even though the other holds the old
// answer in memory.
func TestOtherWritersAreSeen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	c := newClock()
	app, err := Open(path, &Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ctl, err := Open(path, &Options{MemoryEntries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	k := readKey("u")
	mustPut(t, app, private("u", "acme", "v1"))
	value(t, app, k, "acme")
	if got := value(t, app, k, "acme"); got != "v1" {
		t.Fatalf("app Get = %q; want v1", got)
	}
	if _, err := ctl.Purge(context.Background(), Filter{Account: "acme"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(otherWritersInterval)
	if got := value(t, app, k, "acme"); got != "" {
		t.Errorf("app Get after another store's purge = %q; want a miss", got)
	}
	mustPut(t, ctl, private("u", "acme", "v2"))
	c.Advance(otherWritersInterval)
	for range 2 {
		if got := value(t, app, k, "acme"); got != "v2" {
			t.Errorf("app Get after another store's put = %q; want v2", got)
		}
	}
	if st, _ := app.Stats(context.Background(), Filter{}); st.MemoryHits != 2 {
		t.Errorf("app memory hits = %d; want 2 (one before the purge, one after the put)", st.MemoryHits)
	}
}
