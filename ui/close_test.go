package ui

import (
	"testing"
)

// Work that lands after the window closed changes no widget: quitting on
// SIGTERM closes the app while reads are in flight, and Fyne's loop has
// ended by the time they land (each widget they touched printed "should
// have been called in fyne.Do", up to 183 lines).
func TestNothingLandsAfterClose(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	in := h.app.inspector
	var started string
	h.do(func() {
		h.app.ReadID(id) // in flight: the close cancels it, and it lands
		started = in.badge.Text
		h.app.Close()
	})
	h.settle()
	if in.badge.Text != started || in.facts.Visible() {
		t.Errorf("a read that landed after the close shows %q in the inspector", in.badge.Text)
	}
	h.do(h.app.Close) // a second close, as the harness's cleanup does, is harmless
	if n := openWindows.Load(); n != 0 {
		t.Errorf("%d windows counted open after the close, want 0", n)
	}
}
