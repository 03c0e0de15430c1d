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

// The budget field refuses what is not a budget, saying why, the range,
// and the budget the context stays packed under: an empty field, words,
// and a number over the largest (typed a digit at a time, its last prefix
// within the range is the one kept, and said).
func TestBudgetRejectsBadInput(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m5", 1)...)
	p := h.app.attachments
	typeBudget := func(s string) {
		h.do(func() { p.budget.SetText(""); test.Type(p.budget, s) })
		h.settle()
	}
	for _, tt := range []struct{ typed, says string }{
		{"", "Type a budget: a whole number of tokens from 1 to 2,000,000. The context stays packed under 8,000 tokens."},
		{"lots", "“lots” is not a budget: a whole number of tokens from 1 to 2,000,000. The context stays packed under 8,000 tokens."},
		{"0", "A budget is at least 1 token (a whole number of tokens from 1 to 2,000,000). The context stays packed under 8,000 tokens."},
	} {
		h.do(func() { p.budget.SetText("8000") })
		h.settle()
		typeBudget(tt.typed)
		h.do(func() {
			if !p.budgetNote.Visible() || p.budgetNote.Text != tt.says {
				t.Errorf("typed %q: the note (shown %v) says %q, want %q", tt.typed, p.budgetNote.Visible(), p.budgetNote.Text, tt.says)
			}
			if p.packing.Budget != 8000 {
				t.Errorf("typed %q: packed under %d; want the 8,000 kept", tt.typed, p.packing.Budget)
			}
		})
	}
	typeBudget("12345678901234567890")
	h.do(func() {
		want := "“12345678901234567890” tokens is over the largest budget, 2,000,000 tokens. The context stays packed under 1,234,567 tokens."
		if p.budgetNote.Text != want || p.packing.Budget != 1234567 {
			t.Errorf("20 digits: the note says %q, packed under %d; want %q and 1,234,567", p.budgetNote.Text, p.packing.Budget, want)
		}
	})
	typeBudget("500")
	h.do(func() {
		if p.budgetNote.Visible() || p.packing.Budget != 500 {
			t.Errorf("after 500: note shown %v (%q), packed under %d", p.budgetNote.Visible(), p.budgetNote.Text, p.packing.Budget)
		}
	})
}
