package hostcache

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// wordCounter counts words, and how often it was asked.
type wordCounter struct{ calls atomic.Int64 }

func (w *wordCounter) Count(s string) int { w.calls.Add(1); return len(strings.Fields(s)) }
func (w *wordCounter) Name() string       { return "words/1" }

// TestCountsKeptAcrossProcesses stores a body, counts it through the
// entry's CountStore, and counts it again from a second store on the same
// file, as the next process would: the second count is the stored one,
// with no call to the counter, and a new value of the entry is counted
// again.
func TestCountsKeptAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	key := hostcore.CacheKey{Server: "stdio:mem", Method: "resources/read", Param: "mem://1"}
	item := func(bc hostcore.BodyCache, body string) *pack.Item {
		return &pack.Item{ID: "1", Server: "mem", URI: key.Param, Contents: []pack.Content{{URI: key.Param, Text: body}},
			Counts: bc.(hostcore.CountingCache).CountsFor(key, "")}
	}
	put := func(bc hostcore.BodyCache, body string) {
		if err := bc.Put(ctx, hostcore.CacheEntry{Key: key, Scope: hostcore.ScopePublic, Value: []byte(body)}); err != nil {
			t.Fatal(err)
		}
	}
	first, bc, err := Open(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	put(bc, "one two three")
	counter := &wordCounter{}
	want := pack.Tokens(item(bc, "one two three"), counter)
	first.Close()

	next, bc, err := Open(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if got := pack.Tokens(item(bc, "one two three"), counter); got != want || counter.calls.Load() != 1 {
		t.Errorf("in the next process: %d tokens after %d counts; want %d from the stored count, counted once in all", got, counter.calls.Load(), want)
	}
	put(bc, "one two three four")
	if got := pack.Tokens(item(bc, "one two three four"), counter); got != want+1 || counter.calls.Load() != 2 {
		t.Errorf("a new value: %d tokens after %d counts; want %d, counted again", got, counter.calls.Load(), want+1)
	}
}
