package ui

import (
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
