package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
)

// Typing a memory id in By id and tapping Attach attaches
// threengram://memory/{id} through the server's template, and the
// attachments panel shows it included, with the context preview holding it.
func TestAttachByID(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m3", 1)[0]
	p := h.app.picker
	p.show(TabByID)
	h.do(func() { test.Type(p.byID.id, id) })
	if got, want := p.byID.preview.Text, "→ threengram://memory/"+id; got != want {
		t.Errorf("preview = %q, want %q", got, want)
	}
	h.do(func() { test.Tap(p.byID.attachBtn) })
	h.settle()

	rows := h.app.attachments.rows
	if len(rows) != 1 {
		t.Fatalf("%d attachments shown, want 1", len(rows))
	}
	x := rows[0]
	if x.att.URI != "threengram://memory/"+id || x.att.Origin != hostcore.FromID {
		t.Errorf("attached %s from %s, want threengram://memory/%s by id", x.att.URI, x.att.Origin, id)
	}
	if x.dec.Verdict != pack.VerdictIncluded {
		t.Errorf("verdict = %s (%s), want included", x.dec.Verdict, x.dec.Reason)
	}
	doc := h.app.attachments.preview.doc
	if !strings.Contains(doc, "\n## threengram://memory/"+id+"\n") {
		t.Errorf("context preview lacks the memory's section:\n%s", doc)
	}
	h.do(func() { test.Tap(h.app.attachments.preview.send) })
	if sent := texts(h.app.Window().Canvas().Overlays().Top()); !strings.Contains(sent, softWrap(doc, dialogColumns)) {
		t.Errorf("Send does not show the context preview; it shows:\n%s", sent)
	}
	tapDialogButton(t, h, "Copy")
	if got := h.fa.Clipboard().Content(); got != doc {
		t.Errorf("Copy put %d bytes on the clipboard, want the %d of the document exactly", len(got), len(doc))
	}
	tapDialogButton(t, h, "Close")
	assertMarkup(t, "by_id.xml", p.tabs)
	assertMarkup(t, "attachments_one.xml", h.app.attachments.list)
}

// Typing in a template field asks for completions once typing pauses;
// tapping a suggestion fills the field and the preview; Read shows the
// body, a cache miss, then a hit; Ctrl+Enter attaches it.
func TestTemplateCompletion(t *testing.T) {
	h := newHarness(t)
	w := h.app.picker.templates
	field := w.fields["id"]
	if field == nil {
		t.Fatal("the demo's template has no id field")
	}
	h.do(func() { test.Type(field, "m1") })
	h.settle()
	if len(w.suggestions) == 0 || w.suggestVar != "id" {
		t.Fatalf("suggestions for %q = %v, want some", w.suggestVar, w.suggestions)
	}
	for _, s := range w.suggestions {
		if !strings.HasPrefix(s, "m1") {
			t.Errorf("suggestion %q does not complete m1", s)
		}
	}
	chosen := w.suggestions[0]
	h.do(func() { w.suggestList.Select(0) })
	h.settle()
	if field.Text != chosen {
		t.Errorf("field = %q after tapping %q", field.Text, chosen)
	}
	uri := "threengram://memory/" + chosen
	if got := w.preview.Text; got != "→ "+uri {
		t.Errorf("preview = %q, want → %s", got, uri)
	}
	assertMarkup(t, "template_workbench.xml", h.app.picker.tabs)

	// The suggestion's row tells the memory apart: its line was read
	// through the cache, so the person's read is a hit.
	var line string
	h.do(func() { line = w.metas[uri] })
	if m := h.memoryMeta("acme", uri); line == "" || line != m.Line() {
		t.Errorf("the suggestion's line = %q, want %q", line, m.Line())
	}
	h.do(func() { test.Tap(w.readBtn) })
	h.settle()
	in := h.app.inspector
	if !strings.HasPrefix(in.badge.Text, "HIT · private · account acme") {
		t.Errorf("first read's badge = %q, want a private hit for acme (the suggestion's line read it)", in.badge.Text)
	}
	h.do(func() { field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }) // Enter reads again
	h.settle()
	if !strings.HasPrefix(in.badge.Text, "HIT · private · account acme · 24h left") {
		t.Errorf("second read's badge = %q, want a hit with a day left", in.badge.Text)
	}
	assertMarkup(t, "inspector_json.xml", h.app.inspector.tabs)

	h.shortcut(shortcutAttach)
	h.settle()
	if rows := h.app.attachments.rows; len(rows) != 1 || rows[0].att.URI != uri || rows[0].att.Origin != hostcore.FromTemplate {
		t.Errorf("after Ctrl+Enter the attachments are %+v, want %s from the template", rows, uri)
	}
}

// A template value that would escape its segment is refused before
// anything is sent, with Expand's reason under the preview.
func TestTemplateRefusal(t *testing.T) {
	h := newHarness(t)
	w := h.app.picker.templates
	h.do(func() { test.Type(w.fields["id"], "..") })
	if w.refusal.Hidden || !strings.Contains(w.refusal.Text, "dot-segment") {
		t.Errorf("refusal = %q (hidden %v), want the dot-segment reason", w.refusal.Text, w.refusal.Hidden)
	}
	if !w.readBtn.Disabled() || !w.attachBtn.Disabled() {
		t.Error("Read and Attach are enabled for a refused value")
	}
	h.settle()
}

// The resources of every page are listed with their icons; the search box
// filters as you type; Ctrl+K focuses it.
func TestResourcesSearch(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("images", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	r := h.app.picker.resources
	if len(r.all) != 2 || len(r.shown) != 2 {
		t.Fatalf("%d resources listed, %d shown; want the image server's 2", len(r.all), len(r.shown))
	}
	h.shortcut(shortcutFind)
	if h.app.Window().Canvas().Focused() != r.search {
		t.Error("Ctrl+K did not focus the search box")
	}
	h.do(func() { test.Type(r.search, "JPEG") })
	if len(r.shown) != 1 || r.all[r.shown[0]].URI != "test://image/jpeg" {
		t.Errorf("searching JPEG shows %v, want test://image/jpeg only", r.shown)
	}
	h.settle() // the icons
	if icon := r.icons.got[r.all[0].Icons[0].Source]; icon == nil {
		t.Error("the server's data: icon was not fetched")
	}
	assertMarkup(t, "resources_search.xml", h.app.picker.tabs)
}

// Every page of a listing is fetched and shown as it arrives.
func TestResourcesEveryPage(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("paged", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	r := h.app.picker.resources
	if len(r.all) != 2000 || r.rows.Length() != 2000 {
		t.Fatalf("%d resources listed, %d rows; want all 2,000 of 20 pages", len(r.all), r.rows.Length())
	}
	if !r.progress.Hidden {
		t.Error("the progress bar is still shown after the last page")
	}
	h.do(func() { test.Type(r.search, "resources/1999") })
	if len(r.shown) != 1 || r.all[r.shown[0]].URI != mcptest.PagedURI(1999) {
		t.Errorf("searching resources/1999 shows %d resources, want %s", len(r.shown), mcptest.PagedURI(1999))
	}
}

// A long listing shows its progress and stops at Cancel, keeping what
// arrived.
func TestResourcesCancel(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("huge", "") }); err != nil {
		t.Fatal(err)
	}
	r := h.app.picker.resources
	var pages string
	h.waitFor("the first pages", func() bool {
		var n int
		h.do(func() { n, pages = len(r.all), r.pages.Text })
		return n >= 300
	})
	if !strings.HasPrefix(pages, "Listing: ") {
		t.Errorf("progress says %q while listing", pages)
	}
	h.do(func() { test.Tap(find[*button](r.progress)) })
	h.settle()
	if n := len(r.all); n >= 1_000_000 || !r.progress.Hidden {
		t.Errorf("after Cancel: %d resources, progress hidden %v; want the listing stopped", n, r.progress.Hidden)
	}
	if !strings.HasPrefix(h.app.status.Text, "Listing canceled after ") {
		t.Errorf("status line = %q", h.app.status.Text)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// The picker's tabs behind the first get their content when first shown:
// the first frame neither builds nor measures them. Shown, a tab holds
// its own screen.
func TestPickerTabsFilledWhenShown(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir(), afterFirstFrame: func(func()) {}}
	h.open()
	p := h.app.picker
	h.do(func() {
		for i, item := range p.tabs.Items[1:] {
			if c, ok := item.Content.(*fyne.Container); !ok || len(c.Objects) != 0 {
				t.Errorf("before it was shown, tab %d holds %T", i+1, item.Content)
			}
		}
		tools := p.unshown[p.tabs.Items[TabTools]] // what tools.buildUI made
		p.show(TabTools)
		if got := p.tabs.Items[TabTools].Content; tools == nil || got != tools {
			t.Errorf("shown, the tools tab holds %T, not the tools' screen", got)
		}
	})
}
