package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
)

// A budget keystroke, a pin and a priority re-pack the attachments already
// read: the cache (and so the server) is not asked again, and the ranking
// shown is the new one.
func TestBudgetAndPinRepackWithoutReading(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m3", 3)...)
	p := h.app.attachments
	gets := func() int64 {
		st, err := h.host.CacheStats(context.Background(), hostcore.CacheFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return st.Hits + st.Misses
	}
	before := gets()
	h.do(func() { p.budget.SetText("") })
	h.do(func() { test.Type(p.budget, "100") })
	h.settle()
	if pk := p.packing; pk.Budget != 100 || len(pk.Decisions) != 3 {
		t.Fatalf("packing under %d with %d decisions; want 100 and 3", pk.Budget, len(pk.Decisions))
	}
	last := p.rows[2].att.URI
	h.do(func() { test.Tap(rowWidgets(p.list)[2].pin) })
	h.settle()
	h.do(p.resort) // the list holds its order after a row's change (TestPinKeepsTheRowInPlace)
	if p.rows[0].att.URI != last || !p.rows[0].att.Pinned || !p.rows[0].dec.Item.Pinned {
		t.Fatalf("after pinning %s the first row is %s", last, p.rows[0].att.URI)
	}
	h.do(func() { rowWidgets(p.list)[1].priority.SetSelectedIndex(1) }) // "1 (required)"
	h.settle()
	if p.rows[1].dec.Priority != 1 {
		t.Errorf("second row's priority %v after setting it to 1", p.rows[1].dec.Priority)
	}
	if n := gets() - before; n != 0 {
		t.Errorf("the cache was asked %d times; a budget, a pin or a priority must not read", n)
	}
}
