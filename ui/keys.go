package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// keyEntry is a one-line Entry that hands Down and Escape to its owner:
// Down moves from a search or template field into the list below it, and
// Escape closes the dialog the field is in. Fyne's Entry ignores both, and
// a focused widget receives every key, so the owner never hears of them
// otherwise.
type keyEntry struct {
	widget.Entry
	onDown   func()
	onEscape func()
}

func newKeyEntry() *keyEntry {
	e := &keyEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey handles Down and Escape when the owner asked for them, and
// leaves every other key to the Entry.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	switch {
	case ev.Name == fyne.KeyDown && e.onDown != nil && !e.MultiLine:
		e.onDown()
	case ev.Name == fyne.KeyEscape && e.onEscape != nil:
		e.onEscape()
	default:
		e.Entry.TypedKey(ev)
	}
}

// dismissable is what closeOnEscape needs of a dialog.
type dismissable interface {
	dialog.Dialog
	SetOnClosed(func())
}

// closeOnEscape makes Escape close d, and Enter run submit (when not nil),
// while d is open: from the window when no field has the focus, and from
// each of fields when one has. It restores the window's own key handler
// when d closes. Call it before d.Show.
func closeOnEscape(win fyne.Window, d dismissable, submit func(), fields ...*keyEntry) {
	c := win.Canvas()
	prev := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch {
		case ev.Name == fyne.KeyEscape:
			d.Hide()
		case (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && submit != nil:
			submit()
		case prev != nil:
			prev(ev)
		}
	})
	for _, f := range fields {
		f.onEscape = d.Hide
		if submit != nil {
			f.OnSubmitted = func(string) { submit() }
		}
	}
	d.SetOnClosed(func() { c.SetOnTypedKey(prev) })
}
