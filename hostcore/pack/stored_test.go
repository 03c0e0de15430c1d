package pack

import (
	"crypto/sha256"
	"strings"
	"sync"
	"testing"
)

// mapCounts is a CountStore in memory, as a cache entry's would be.
type mapCounts struct {
	mu    sync.Mutex
	kept  map[string]StoredCount
	saves int
}

func (m *mapCounts) LoadCount(counter string) (StoredCount, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.kept[counter]
	return c, ok
}

func (m *mapCounts) SaveCount(c StoredCount) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kept == nil {
		m.kept = map[string]StoredCount{}
	}
	m.kept[c.Counter] = c
	m.saves++
}

// callCounter counts words and how often it was asked.
type callCounter struct {
	mu    sync.Mutex
	calls int
	name  string
}

func (c *callCounter) Count(s string) int {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return len(strings.Fields(s))
}

func (c *callCounter) Name() string { return c.name }

func storedItem(counts CountStore) *Item {
	return &Item{ID: "a", Server: "mem", URI: "mem://1", Contents: []Content{{URI: "mem://1", MIMEType: "text/plain", Text: "one two three four"}}, Counts: counts}
}

// TestStoredCountUsed: a count kept by the counter's name, of exactly the
// text it would count, is used without counting; a count by another
// counter, of other text or negative is counted again and replaced.
func TestStoredCountUsed(t *testing.T) {
	counter := &callCounter{name: "words/1"}
	counts := &mapCounts{}
	want := Tokens(storedItem(counts), counter)
	if counter.calls != 1 || counts.saves != 1 || counts.kept["words/1"].Tokens != want {
		t.Fatalf("first count: %d calls, %d saves, kept %+v; want 1, 1 and %d", counter.calls, counts.saves, counts.kept, want)
	}
	if got := Tokens(storedItem(counts), counter); got != want || counter.calls != 1 {
		t.Errorf("with the count kept: %d tokens after %d calls; want %d, counted once", got, counter.calls, want)
	}
	md := sectionOf(storedItem(nil), meterOf(nil).vision).Markdown()
	for name, bad := range map[string]StoredCount{
		"another counter": {Counter: "words/2", Subject: sha256.Sum256([]byte(md)), Tokens: 99},
		"other text":      {Counter: "words/1", Subject: sha256.Sum256([]byte("other")), Tokens: 99},
		"negative":        {Counter: "words/1", Subject: sha256.Sum256([]byte(md)), Tokens: -1},
	} {
		counter.calls = 0
		c := &mapCounts{kept: map[string]StoredCount{"words/1": bad}}
		if got := Tokens(storedItem(c), counter); got != want || counter.calls != 1 || c.kept["words/1"].Tokens != want {
			t.Errorf("%s: %d tokens after %d calls, kept %+v; want %d, counted once and kept", name, got, counter.calls, c.kept["words/1"], want)
		}
	}
	unnamed := &callCounter{}
	c := &mapCounts{}
	Tokens(storedItem(c), unnamed)
	if c.saves != 0 {
		t.Errorf("a counter with no name kept %d counts; its counts are nobody's", c.saves)
	}
}

// TestDefaultCounterKeepsCounts: Rank with the default counter keeps the
// count of a body it had to count, and a ranking of the same body from
// that store gives the same figure.
func TestDefaultCounterKeepsCounts(t *testing.T) {
	counts := &mapCounts{}
	p := Rank([]*Item{storedItem(counts)}, nil)
	kept, ok := counts.kept[DefaultCounterName]
	if !ok || kept.Tokens != p.Decisions[0].Tokens {
		t.Fatalf("Rank kept %+v; want the count %d by %q", counts.kept, p.Decisions[0].Tokens, DefaultCounterName)
	}
	if got := Tokens(storedItem(&mapCounts{kept: counts.kept}), nil); got != kept.Tokens {
		t.Errorf("Tokens from the kept count = %d; want %d", got, kept.Tokens)
	}
}
