package pack

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestRankKeepsNothing: Rank remembers nothing of the items it ranked, even
// ranked again and again with the default counter: once the caller drops
// them, the collector frees their bodies. (Rank once kept a process-wide
// memo by the item's address, holding the strings of every item ranked
// twice until enough other items came.)
func TestRankKeepsNothing(t *testing.T) {
	items, freed := itemsWithFreedBody()
	for range 3 {
		if d := Rank(items, nil).Decisions[0]; d.Item != items[1] || d.Verdict != VerdictIncluded {
			t.Fatalf("first decision %s on %s; want the required body's item included", d.Verdict, d.Item.ID)
		}
	}
	items = nil
	waitFreed(t, freed, "the body of an item ranked three times, then dropped,")
}

// TestRankerForgets: a Ranker remembers an item only while its rankings
// give it; once a ranking no longer does, and the caller drops it, the
// collector frees its body, though the Ranker lives on.
func TestRankerForgets(t *testing.T) {
	items, freed := itemsWithFreedBody()
	r := NewRanker(nil)
	r.Rank(items, 0)
	r.Rank(items, 0)
	r.Repack(items, 100)
	other := []*Item{{ID: "other", URI: "x://other", Contents: []Content{{URI: "x://other", Text: "other"}}}}
	if p := r.Rank(other, 0); len(p.Decisions) != 1 || p.Decisions[0].Item != other[0] {
		t.Fatalf("ranking other items gave %+v", p.Decisions)
	}
	items = nil
	waitFreed(t, freed, "the body of an item a Ranker no longer ranks")
	runtime.KeepAlive(r)
}

// itemsWithFreedBody returns two items, the second with a body of its own
// allocation, and a channel closed once the collector has freed that body.
func itemsWithFreedBody() ([]*Item, <-chan struct{}) {
	body := strings.Repeat("a body to be freed ", 1<<12) // 76 KB
	freed := make(chan struct{})
	runtime.AddCleanup(unsafe.StringData(body), func(ch chan struct{}) { close(ch) }, freed)
	return []*Item{
		{ID: "small", URI: "x://small", Order: 0, Contents: []Content{{URI: "x://small", Text: "small"}}},
		{ID: "big", URI: "x://big", Order: 1, Annotations: Annotations{Priority: prio(1)}, Contents: []Content{{URI: "x://big", MIMEType: "text/plain", Text: body}}},
	}, freed
}

// waitFreed runs the collector until freed is closed, and fails t if it
// is not within 10 seconds.
func waitFreed(t *testing.T, freed <-chan struct{}, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still alive after 10 s of collections", what)
		}
	}
}
