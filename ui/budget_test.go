package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// Each conversation keeps its own budget, across a switch and a restart;
// a new one starts with the last budget typed.
func TestBudgetPerConversation(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m5", 1)...)
	bar, p := h.app.conversations, h.app.attachments
	first := h.app.sh.conv
	typeBudget := func(n string) {
		h.do(func() { p.budget.SetText(""); test.Type(p.budget, n) })
		h.settle()
	}
	typeBudget("500")
	if p.packing.Budget != 500 {
		t.Fatalf("packed under %d after typing 500", p.packing.Budget)
	}
	h.do(func() { bar.create("Second") })
	h.settle()
	if p.budget.Text != "500" {
		t.Errorf("a new conversation starts with budget %q, want the last typed, 500", p.budget.Text)
	}
	typeBudget("900")
	h.do(func() { bar.choose.SetSelected(first.Title) })
	h.settle()
	if p.budget.Text != "500" || p.packing.Budget != 500 {
		t.Errorf("back in the first conversation: budget %q, packed under %d; want 500", p.budget.Text, p.packing.Budget)
	}
	h.do(h.app.Close)
	h.open() // the first conversation is remembered, and so is its budget
	p = h.app.attachments
	if h.app.sh.conv.ID != first.ID || p.budget.Text != "500" || p.packing.Budget != 500 {
		t.Errorf("after a restart: conversation %d, budget %q, packed under %d", h.app.sh.conv.ID, p.budget.Text, p.packing.Budget)
	}
	h.do(func() { h.app.conversations.choose.SetSelected("Second") })
	h.settle()
	if p.budget.Text != "900" {
		t.Errorf("the second conversation's budget is %q after a restart, want 900", p.budget.Text)
	}
}
