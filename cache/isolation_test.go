package cache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// model is what the store should hold: an entry per key and partition,
// with its value and account name.
type model map[slot]Entry

// visible is what Get(key, account) should answer.
func (m model) visible(key Key, account string) (Entry, bool) {
	if account != "" {
		if e, ok := m[slot{key, Private, account}]; ok {
			return e, true
		}
	}
	e, ok := m[slot{key: key, scope: Public}]
	return e, ok
}

// removeWhere deletes the entries match selects and returns how many.
func (m model) removeWhere(match func(Entry) bool) int {
	n := 0
	for s, e := range m {
		if match(e) {
			delete(m, s)
			n++
		}
	}
	return n
}

// isolationWorld is the space the property test draws from.
type isolationWorld struct {
	r        *rand.Rand
	servers  []string
	methods  []string
	params   []string
	accounts []string // the private partitions entries are stored in
	names    []string // the account names that store them; any name may use any partition
	askers   []string // who may read: the partitions, "" and one that never stores
}

func (w isolationWorld) pick(from []string) string { return from[w.r.IntN(len(from))] }

func (w isolationWorld) key() Key {
	return Key{w.pick(w.servers), w.pick(w.methods), w.pick(w.params)}
}

// TestIsolationProperty runs a few thousand random operations by several
// accounts over several servers, params and scopes against a model. After
// every Get: no private entry reaches another partition, public entries
// are shared, and the answer is exactly the model's. Every value names the
// partition it was stored in, so a leak cannot pass for a coincidence.
// Names are drawn apart from partitions, and some are prefixes of others,
// so purges by name must match the label exactly, in SQL and in memory.
func TestIsolationProperty(t *testing.T) {
	for _, tier := range []struct {
		name          string
		memoryEntries int
	}{{"memory", 0}, {"small memory", 8}, {"sqlite", -1}} {
		t.Run(tier.name, func(t *testing.T) {
			c := newClock()
			s := openStore(t, &Options{MemoryEntries: tier.memoryEntries, Now: c.Now})
			w := isolationWorld{
				r:        rand.New(rand.NewPCG(2026, 7)),
				servers:  []string{"https://a.example/mcp", "https://b.example/mcp", "stdio:9f1c"},
				methods:  []string{"resources/read", "resources/list"},
				params:   []string{"", "mem://1", "mem://2", "mem://3", "cursor-2"},
				accounts: []string{"fp-acme", "fp-globex", "fp-initech"},
				names:    []string{"alice", "alice@example.com", "alicex", "bob"},
				askers:   []string{"fp-acme", "fp-globex", "fp-initech", "", "fp-stranger"},
			}
			m := model{}
			for i := range 4000 {
				c.Advance(time.Millisecond)
				isolationStep(t, s, w, m, i)
			}
			st, err := s.Stats(context.Background(), Filter{})
			if err != nil || st.Entries != len(m) {
				t.Errorf("store holds %d entries, %v; the model %d", st.Entries, err, len(m))
			}
			if tier.memoryEntries >= 0 && st.MemoryHits == 0 {
				t.Error("no Get was answered from memory; the memory tier went untested")
			}
			t.Logf("%d hits (%d from memory), %d misses", st.Hits, st.MemoryHits, st.Misses)
		})
	}
}

// isolationStep draws one operation, runs it on the store and the model,
// and checks the store's answer.
func isolationStep(t *testing.T, s *Store, w isolationWorld, m model, i int) {
	t.Helper()
	ctx := context.Background()
	n, want, op := 0, 0, ""
	var err error
	switch roll := w.r.IntN(100); {
	case roll < 40:
		e := Entry{Key: w.key(), Scope: Public}
		if w.r.IntN(2) == 0 {
			e.Scope, e.Account, e.AccountName = Private, w.pick(w.accounts), w.pick(w.names)
		}
		e.Value = []byte(fmt.Sprintf("%v|%s|%s|#%d", e.Key, e.Scope, e.Account, i))
		m[slotOf(e)] = e
		err = s.Put(ctx, e)
	case roll < 88:
		isolationGet(t, s, w.key(), w.pick(w.askers), m)
		return
	case roll < 93:
		k := w.key()
		op, want = fmt.Sprintf("Delete(%v)", k), m.removeWhere(func(e Entry) bool { return e.Key == k })
		n, err = s.Delete(ctx, k)
	case roll < 96:
		server, method := w.pick(w.servers), w.pick(w.methods)
		op = fmt.Sprintf("DeleteMethod(%s, %s)", server, method)
		want = m.removeWhere(func(e Entry) bool { return e.Key.Server == server && e.Key.Method == method })
		n, err = s.DeleteMethod(ctx, server, method)
	default:
		f := Filter{Account: w.pick(w.accounts)}
		if w.r.IntN(2) == 0 {
			f = Filter{AccountName: w.pick(w.names)}
		}
		if w.r.IntN(2) == 0 {
			f.Server = w.pick(w.servers)
		}
		op, want = fmt.Sprintf("Purge(%v)", f), m.removeWhere(func(e Entry) bool { return modelMatches(f, e) })
		n, err = s.Purge(ctx, f)
	}
	if err != nil || n != want {
		t.Fatalf("op %d: %s = %d, %v; want %d", i, op, n, err, want)
	}
}

// isolationGet checks one Get against the model.
func isolationGet(t *testing.T, s *Store, k Key, account string, m model) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), k, account)
	if err != nil {
		t.Fatal(err)
	}
	if ok && got.Scope == Private && got.Account != account {
		t.Fatalf("%s's private entry for %v served to %q", got.Account, k, account)
	}
	type answer struct {
		Found                       bool
		Scope, Account, AccountName string
		Value                       string
	}
	wantEntry, wantOK := m.visible(k, account)
	want := answer{Found: wantOK}
	if wantOK {
		want = answer{true, string(wantEntry.Scope), wantEntry.Account, wantEntry.AccountName, string(wantEntry.Value)}
	}
	have := answer{Found: ok}
	if ok {
		have = answer{true, string(got.Scope), got.Account, got.AccountName, string(got.Value)}
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Fatalf("Get(%v, %q) (-model +store):\n%s", k, account, diff)
	}
}

// modelMatches is Filter's meaning spelled out apart from Filter.matches,
// so that the property test checks the SQL and the memory tier against an
// independent statement of it rather than against their own twin.
func modelMatches(f Filter, e Entry) bool {
	if f.Server != "" && e.Key.Server != f.Server {
		return false
	}
	if f.Account == "" && f.AccountName == "" && !f.PrivateOnly {
		return true
	}
	return e.Scope == Private && (f.Account == "" || e.Account == f.Account) &&
		(f.AccountName == "" || e.AccountName == f.AccountName)
}
