package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
)

// below reports whether b is laid out under a, not over it, in window
// coordinates.
func below(a, b fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	pa, pb := d.AbsolutePositionForObject(a), d.AbsolutePositionForObject(b)
	return pb.Y >= pa.Y+a.Size().Height-1
}

// Switching account keeps the template workbench laid out: its preview
// stays under the id field, in both the Templates and the Memories tab.
func TestAccountSwitchLayout(t *testing.T) {
	h := newHarness(t)
	w := h.app.picker.templates
	b := h.app.picker.byID
	for _, account := range []string{"globex", "acme", "globex"} {
		h.do(func() { h.app.picker.show(TabTemplates); test.WidgetRenderer(w.form) }) // drawn, as in a window
		h.do(func() { h.card(hostcore.DemoServerName).accounts.SetSelected(account) })
		h.settle()
		h.do(func() {
			field := w.fields["id"]
			if drawnEntry(w.form) != field {
				t.Errorf("as %s, the form draws another account's field, not the one the preview follows", account)
			}
			if field == nil || !below(field, w.preview) {
				t.Errorf("as %s, the template's preview is drawn over its field", account)
			}
		})
		h.do(func() { h.app.picker.show(TabByID) })
		h.settle()
		h.do(func() {
			if !below(b.id, b.preview) {
				t.Errorf("as %s, the id preview is drawn over the id field", account)
			}
		})
	}
}

// Switching to another account of the same server keeps the tab the
// person is on (Memories, searching), where another server chooses the tab
// again.
func TestAccountSwitchKeepsTheTab(t *testing.T) {
	h := newHarness(t)
	p := h.app.picker
	h.do(func() { p.show(TabByID) })
	h.do(func() { h.card(hostcore.DemoServerName).accounts.SetSelected("globex") })
	h.settle()
	if got := p.current(); got != TabByID {
		t.Errorf("after switching account the picker shows tab %d, want Memories (%d)", got, TabByID)
	}
	h.do(func() { h.card("paged").accounts.SetSelected(h.card("paged").accounts.Options[0]) })
	h.settle()
	if got := p.current(); got != TabResources {
		t.Errorf("after switching to a server that lists resources the picker shows tab %d, want Resources", got)
	}
}

// While another account's templates are still being looked up, the
// Memories and Templates tabs say so: no refusal of an id template the
// server was never asked for, no "offers no templates", no stale field.
func TestAccountSwitchWhileLooking(t *testing.T) {
	h := newHarness(t)
	b, w := h.app.picker.byID, h.app.picker.templates
	h.do(func() {
		c := h.app.sh.conn
		if c == nil {
			t.Fatal("the demo is not browsed on the first screen")
		}
		b.setConn(c) // the lookups start; their answers cannot land inside this h.do
		w.setConn(c)
		if b.refusal.Visible() {
			t.Errorf("while the id template is looked up, the Memories tab says %q", b.refusal.Text)
		}
		if !strings.Contains(b.preview.Text, "Looking up the memory template of "+c.Server.Name) {
			t.Errorf("while the id template is looked up, the preview says %q", b.preview.Text)
		}
		if !b.readBtn.Disabled() || !b.attachBtn.Disabled() {
			t.Error("Read or Attach is enabled before the id template is known")
		}
		if !w.empty.Visible() || !strings.Contains(w.empty.Text, "Listing the templates of "+c.Server.Name+" as "+c.Account.Name) {
			t.Errorf("while the templates are listed, the Templates tab says %q (shown %v)", w.empty.Text, w.empty.Visible())
		}
		if len(w.fields) != 0 {
			t.Errorf("the last listing's fields stay while the next is on its way: %v", w.fields)
		}
	})
	h.settle()
	if strings.HasPrefix(b.refusal.Text, "Refused") || !strings.HasPrefix(b.preview.Text, "→ threengram://memory/") {
		t.Errorf("once the template is known, the preview says %q and the refusal %q", b.preview.Text, b.refusal.Text)
	}
	if w.empty.Visible() || w.fields["id"] == nil {
		t.Errorf("once listed, the Templates tab shows %q and fields %v", w.empty.Text, w.fields)
	}
}
