package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// Search memories calls the server's search tool when the person asks:
// each result shows its id, type, topic, project and date and an excerpt,
// More pages on, and Attach attaches the memory through the id template.
func TestSearchMemoriesInTheApp(t *testing.T) {
	h := newHarness(t)
	s := h.app.picker.byID.search
	h.do(func() { h.app.picker.show(TabByID) })
	h.do(func() { test.Type(s.query, "the") })
	h.do(func() { s.query.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	h.settle()
	if len(s.hits) != searchPage || s.cursor == "" {
		t.Fatalf("%d hits (next %q) for a common word, want a full page and more", len(s.hits), s.cursor)
	}
	var shown string
	h.do(func() { shown = texts(s.results) })
	first := s.hits[0]
	for _, want := range []string{first.ID + " · " + first.Line(), strings.Fields(first.Excerpt)[0], "Attach", "Read"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the results lack %q:\n%s", want, shown)
		}
	}
	if !strings.Contains(s.status.Text, "The first 10 memories matching") {
		t.Errorf("status = %q", s.status.Text)
	}
	h.do(func() { test.Tap(s.more) })
	h.settle()
	if len(s.hits) <= searchPage || s.hits[searchPage].ID == first.ID {
		t.Errorf("More: %d hits", len(s.hits))
	}
	var attach *button
	h.do(func() {
		for _, o := range test.LaidOutObjects(s.results) {
			if b, ok := o.(*button); ok && b.Text == "Attach" {
				attach = b
				break
			}
		}
		test.Tap(attach)
	})
	h.settle()
	rows := h.app.attachments.rows
	if len(rows) != 1 || rows[0].att.URI != first.URI {
		t.Fatalf("after Attach the attachments are %+v, want %s", rows, first.URI)
	}
	if got := memoryTitle(rows[0]); got != first.ID+" · "+first.Line() {
		t.Errorf("the attachment is titled %q, want its id and line", got)
	}

	h.do(func() { s.query.SetText("zzqxnotawordanywhere") })
	h.do(func() { test.Tap(s.search) })
	h.settle()
	if len(s.hits) != 0 || !strings.Contains(s.status.Text, "No memory of acme matches") || s.more.Visible() {
		t.Errorf("a search matching nothing: %d hits, status %q", len(s.hits), s.status.Text)
	}
}

// An attachment's lifecycle comes live from get_memories: archived on the
// server, its row says so at the next look.
func TestAttachmentLifecycle(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m4", 1)[0]
	h.attachIDs(id)
	p := h.app.attachments
	if len(p.rows) != 1 || p.rows[0].life.Label() != "" || p.rows[0].memory.Type == "" {
		t.Fatalf("rows = %+v, want one current memory", p.rows)
	}
	c, err := h.host.Conn(hostcore.DemoServerName, "acme")
	if err != nil {
		t.Fatal(err)
	}
	// The test archives it as a person would, confirmed.
	scope, err := h.host.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d := scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: "archive"}, Arguments: []byte(fmt.Sprintf(`{"id":%q}`, id))})
	if _, err := c.CallTool(ctx, d); err != nil {
		t.Fatal(err)
	}
	h.do(func() { p.life.asked = ""; p.rerank() }) // the next look
	h.settle()
	if got := p.rows[0].life.Label(); got != "archived" {
		t.Errorf("after archiving, the row's state = %q", got)
	}
	h.do(func() {
		if rows := rowWidgets(p.list); len(rows) != 1 || rows[0].life.Text != "archived" || rows[0].life.Hidden {
			t.Error("the row does not show archived")
		}
	})
}
