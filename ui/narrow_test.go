package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

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

// At 800×600 the attachments' summary wraps between words, never inside
// one ("unrea/dable"): every row it is drawn in ends where a word does.
func TestSummaryWrapsAtWords800x600(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m2", 1)...)
	h.do(func() { h.app.Window().Resize(fyne.NewSize(800, 600)) })
	h.settle()
	h.do(func() {
		s := h.app.attachments.summary
		var rows []string
		for _, o := range test.LaidOutObjects(s) {
			if tx, ok := o.(*canvas.Text); ok && tx.Text != "" {
				rows = append(rows, tx.Text)
			}
		}
		if len(rows) < 2 {
			t.Fatalf("the summary is drawn in %d row(s) at 800×600, %.0f wide; want it wrapped", len(rows), s.Size().Width)
		}
		if got := strings.Join(rows, " "); got != s.Text {
			t.Errorf("the summary breaks inside a word: rows %q, text %q", rows, s.Text)
		}
	})
}
