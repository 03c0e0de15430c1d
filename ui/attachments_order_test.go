package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// Pinning from a row keeps the row under the pointer: the list holds its
// order, the row shows its new rank, and a note offers Re-sort; Re-sort
// and the next budget put the rows in rank order.
func TestPinKeepsTheRowInPlace(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m3", 3)...)
	p := h.app.attachments
	if len(p.rows) != 3 {
		t.Fatalf("%d rows", len(p.rows))
	}
	last := p.rows[2].att.ID
	h.do(func() {
		rows := rowWidgets(p.list)
		test.Tap(rows[2].pin) // the pointer is on the third row
	})
	h.settle()
	h.do(func() {
		if p.rows[2].att.ID != last || p.rows[2].dec.Rank != 1 || !p.rows[2].att.Pinned {
			t.Errorf("after pinning the third row it holds attachment %d ranked %d (pinned %v); want %d ranked 1, in place",
				p.rows[2].att.ID, p.rows[2].dec.Rank, p.rows[2].att.Pinned, last)
		}
		if rows := rowWidgets(p.list); rows[2].rank.Text != "1." {
			t.Errorf("the row under the pointer shows rank %q, want 1.", rows[2].rank.Text)
		}
		if !p.order.note.Visible() {
			t.Error("no note says the order is held")
		}
		test.Tap(findButton(h.app.Window().Canvas(), "Re-sort"))
	})
	h.do(func() {
		if p.rows[0].att.ID != last || p.order.note.Visible() {
			t.Errorf("after Re-sort the first row is %d (note shown %v), want the pinned %d", p.rows[0].att.ID, p.order.note.Visible(), last)
		}
	})
	// Unpin it (it stays first, held), then a budget change sorts again.
	h.do(func() { test.Tap(rowWidgets(p.list)[0].pin) })
	h.settle()
	if p.rows[0].att.ID != last {
		t.Errorf("unpinning moved the row from under the pointer")
	}
	h.do(func() { p.budget.SetText("7000") })
	h.settle()
	for i, x := range p.rows {
		if x.dec.Rank != i+1 {
			t.Errorf("after a budget change row %d has rank %d", i, x.dec.Rank)
		}
	}
}
