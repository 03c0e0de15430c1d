package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// copyValue is a value that can be copied whole (a metadata field): a
// wrapped label that takes the focus on a click or Tab, draws the focus
// ring, and copies its text on Ctrl+C or from its context menu (a right
// click). It replaces a selectable label, whose focus Fyne draws not at
// all and which the keyboard can neither select in nor copy from.
type copyValue struct {
	widget.BaseWidget
	label *widget.Label
	ring  focusRing
}

func newCopyValue(text string) *copyValue {
	v := &copyValue{label: widget.NewLabel(text)}
	v.label.Wrapping = fyne.TextWrapWord
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer is the label with the ring.
func (v *copyValue) CreateRenderer() fyne.WidgetRenderer {
	return withRing(widget.NewSimpleRenderer(v.label), &v.ring)
}

// Text is the value.
func (v *copyValue) Text() string { return v.label.Text }

// Tapped takes the focus.
func (v *copyValue) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
}

// TappedSecondary offers Copy.
func (v *copyValue) TappedSecondary(e *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(v)
	if c == nil {
		return
	}
	menu := fyne.NewMenu("", fyne.NewMenuItem("Copy", func() { v.copyTo(nil) }))
	widget.ShowPopUpMenuAtPosition(menu, c, e.AbsolutePosition)
}

// TypedShortcut copies the value on Ctrl+C.
func (v *copyValue) TypedShortcut(s fyne.Shortcut) {
	if cp, ok := s.(*fyne.ShortcutCopy); ok {
		v.copyTo(cp.Clipboard)
	}
}

// copyTo puts the value on cb, or on the app's clipboard when cb is nil.
func (v *copyValue) copyTo(cb fyne.Clipboard) {
	if cb == nil {
		cb = fyne.CurrentApp().Clipboard()
	}
	cb.SetContent(v.label.Text)
}

// FocusGained shows the ring.
func (v *copyValue) FocusGained() { v.ring.gained(); v.Refresh() }

// FocusLost hides it.
func (v *copyValue) FocusLost() { v.ring.lost(); v.Refresh() }

func (v *copyValue) focusRingOf() *focusRing { return &v.ring }

// TypedRune ignores text.
func (v *copyValue) TypedRune(rune) {}

// TypedKey hands Escape to the window.
func (v *copyValue) TypedKey(ev *fyne.KeyEvent) { escapeToWindow(v, ev) }
