package ui

import "testing"

// The window works at 800×600: its content's least size fits, with a
// memory attached and the conversation's bar loaded.
func TestWindowFits800x600(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m2", 1)...)
	h.do(func() {
		if m := h.app.Window().Content().MinSize(); m.Width > 800 || m.Height > 600 {
			t.Errorf("the window's content needs %.0f×%.0f (servers %.0f, picker %.0f, attachments %.0f wide)", m.Width, m.Height,
				h.app.servers.root.MinSize().Width, h.app.picker.tabs.MinSize().Width, h.app.attachments.root.MinSize().Width)
		}
	})
}
