package pack

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRankerAgreesWithRank: whatever changes between two rankings (a pin,
// a priority, the budget, a body, an item added or gone), the Ranker's
// packing is the one Rank gives on the same items, and it counts only the
// bodies it has not seen.
func TestRankerAgreesWithRank(t *testing.T) {
	var counted atomic.Int64
	counter := counterFunc(func(s string) int { counted.Add(1); return strings.Count(s, "█") })
	items := []*Item{
		{ID: "a", Order: 0, Contents: body(30), Annotations: Annotations{LastModified: "2025-01-02T03:04:05Z"}},
		{ID: "b", Order: 1, Contents: body(50), Annotations: Annotations{Priority: prio(0.9)}},
		{ID: "c", Order: 2, Contents: body(20), Annotations: Annotations{Audience: []string{"user"}}},
		{ID: "d", Order: 3, ReadErr: ErrNotFound},
		{ID: "e", Order: 4, Contents: body(40)},
	}
	r := NewRanker(&RankOptions{Tokens: counter})
	check := func(step string, items []*Item, budget int, got Packing, wantCounts int64) {
		t.Helper()
		want := Rank(items, &RankOptions{Budget: budget, Tokens: blockCounter{}})
		if diff := cmp.Diff(rows(want), rows(got)); diff != "" {
			t.Errorf("%s: Ranker differs from Rank (-Rank +Ranker):\n%s", step, diff)
		}
		if n := counted.Swap(0); n != wantCounts {
			t.Errorf("%s: counted %d bodies; want %d", step, n, wantCounts)
		}
	}
	check("first", items, 100, r.Rank(items, 100), 3) // a, b, e: c is held, d unreadable
	check("repack", items, 60, r.Repack(items, 60), 0)

	pinned := *items[4]
	pinned.Pinned = true
	items = []*Item{items[0], items[1], items[2], items[3], &pinned}
	check("pin", items, 60, r.Rank(items, 60), 0)

	over := *items[0]
	over.PriorityOverride = prio(1)
	items[0] = &over
	check("priority", items, 60, r.Rank(items, 60), 0)

	edited := *items[1]
	edited.Contents = body(10)
	items[1] = &edited
	check("body", items, 60, r.Rank(items, 60), 1)

	forAll := *items[2]
	forAll.Annotations.Audience = nil
	items[2] = &forAll
	check("audience", items, 60, r.Rank(items, 60), 1)

	items = append(items[:3], &Item{ID: "f", Order: 5, Contents: body(5)})
	check("added and gone", items, 60, r.Rank(items, 60), 1)
	check("repack again", items, 1000, r.Repack(items, 1000), 0)

	// Items the last Rank was not given are ranked, not packed in the
	// order of others.
	other := []*Item{items[1], items[0]}
	check("repack other items", other, 1000, r.Repack(other, 1000), 0)
}
