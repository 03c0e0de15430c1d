package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/internal/mcptest"
)

// attachIDs attaches memories through the By id tab, as a person would.
func (h *harness) attachIDs(ids ...string) {
	p := h.app.picker
	p.show(TabByID)
	for _, id := range ids {
		h.do(func() { p.byID.id.SetText("") })
		h.do(func() { test.Type(p.byID.id, id) })
		h.do(func() { test.Tap(p.byID.attachBtn) })
		h.settle()
	}
}

// rowWidgets are the attachment rows on screen, top to bottom.
func rowWidgets(list fyne.CanvasObject) []*attachmentRow {
	var rows []*attachmentRow
	for _, o := range test.LaidOutObjects(list) {
		if r, ok := o.(*attachmentRow); ok && r.Visible() {
			rows = append(rows, r)
		}
	}
	slices.SortFunc(rows, func(a, b *attachmentRow) int { return int(a.Position().Y - b.Position().Y) })
	return rows
}

// Under a small budget, making two memories required (priority 1) pushes
// the context over budget: the meter says by how much, the other items are
// dropped for budget with their reason, and the preview holds only what is
// included.
func TestExceedBudget(t *testing.T) {
	h := newHarness(t)
	ids := h.memoryIDs("acme", "m2", 3)
	h.attachIDs(ids...)
	p := h.app.attachments
	h.do(func() { p.budget.SetText("") })
	h.do(func() { test.Type(p.budget, "100") }) // each of the three memories needs 70 to 80 tokens
	h.settle()
	rows := rowWidgets(p.list)
	if len(rows) != 3 {
		t.Fatalf("%d rows shown, want 3", len(rows))
	}
	h.do(func() { rows[1].priority.SetSelectedIndex(1) }) // "1 (required)"
	h.settle()
	h.do(func() { rows[2].priority.SetSelectedIndex(1) })
	h.settle()

	pk := p.packing
	if pk.Exceeded <= 0 || pk.Budget != 100 {
		t.Fatalf("packing = used %d of %d, exceeded %d; want over a budget of 100", pk.Used, pk.Budget, pk.Exceeded)
	}
	if p.meter.over.Hidden || !strings.Contains(p.meter.over.Text, "Over budget by") {
		t.Errorf("the meter does not say it is over budget: %q", p.meter.over.Text)
	}
	var included, dropped int
	for _, x := range p.rows {
		switch x.dec.Verdict {
		case pack.VerdictIncluded:
			included++
			if !strings.Contains(p.preview.doc, "## "+x.att.URI+"\n") {
				t.Errorf("included %s is not in the context preview", x.att.URI)
			}
		case pack.VerdictDroppedBudget:
			dropped++
			if strings.Contains(p.preview.doc, x.att.URI) {
				t.Errorf("dropped %s is in the context preview", x.att.URI)
			}
		}
	}
	if included != 2 || dropped != 1 {
		t.Errorf("%d included, %d dropped; want the 2 required ones in and 1 dropped", included, dropped)
	}
	assertMarkup(t, "attachments_over_budget.xml", h.app.attachments.root)
}

// Pinning moves an item to the top; removing it can be undone.
func TestPinRemoveUndo(t *testing.T) {
	h := newHarness(t)
	ids := h.memoryIDs("acme", "m4", 2)
	h.attachIDs(ids...)
	p := h.app.attachments
	last := p.rows[1].att.URI
	h.do(func() { test.Tap(rowWidgets(p.list)[1].pin) })
	h.settle()
	h.do(p.resort) // the list holds its order after a row's change (TestPinKeepsTheRowInPlace)
	if p.rows[0].att.URI != last || !p.rows[0].att.Pinned {
		t.Fatalf("after pinning %s the first row is %s", last, p.rows[0].att.URI)
	}
	h.do(func() { test.Tap(rowWidgets(p.list)[0].remove) })
	h.settle()
	if len(p.rows) != 1 || p.undo.Hidden {
		t.Fatalf("after removing: %d rows, undo hidden %v; want 1 row and Undo", len(p.rows), p.undo.Hidden)
	}
	h.do(func() { test.Tap(find[*button](p.undo)) })
	h.settle()
	if len(p.rows) != 2 || !p.undo.Hidden || p.rows[0].att.URI != last {
		t.Errorf("after Undo: %d rows, first %s; want both back, the pinned one first", len(p.rows), p.rows[0].att.URI)
	}
}

// When the server says an attached resource changed, its row turns stale;
// Re-read puts the new body in use and clears the badge; Diff is offered.
func TestStaleReread(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("era", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource(mcptest.ReadmeURI) }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach)
	h.settle()
	p := h.app.attachments
	if len(p.rows) != 1 || p.rows[0].watch.Mode != hostcore.WatchSubscribed {
		t.Fatalf("rows = %+v, want the readme, subscribed", p.rows)
	}
	c, err := h.host.Conn("era", "")
	if err != nil {
		t.Fatal(err)
	}
	// The test touches it as a person would, through the consent gate.
	scope, err := h.host.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d := scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: "touch"}, Arguments: []byte(`{"uri":"` + mcptest.ReadmeURI + `"}`)})
	if _, err := c.CallTool(ctx, d); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the stale badge", func() bool {
		var stale bool
		h.do(func() { stale = len(p.rows) == 1 && p.rows[0].watch.Stale })
		return stale
	})
	var row *attachmentRow
	h.do(func() {
		row = rowWidgets(p.list)[0]
		if row.stale.Hidden {
			t.Error("the row shows no stale badge")
		}
		test.Tap(row.reread)
	})
	h.settle()
	h.do(func() {
		row = rowWidgets(p.list)[0]
		if p.rows[0].watch.Stale || row.diff.Disabled() {
			t.Errorf("after Re-read: stale %v, diff disabled %v; want fresh with a diff offered", p.rows[0].watch.Stale, row.diff.Disabled())
		}
	})
}
