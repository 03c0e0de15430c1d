package ui

import (
	"encoding/json"

	"fyne.io/fyne/v2"
)

// The viewer's search: Find or Ctrl+F opens the bar; every match in the
// view is marked, the first brought into view, and the bar counts them;
// Enter, Shift+Enter and the arrows go through them; Escape or Close ends
// the search. The bar stays open, and its query marked, across entries,
// modes and bodies, until it is closed.

// ShowFind opens the find bar and puts the keyboard in its field, with
// what it holds selected.
func (v *bodyViewer) ShowFind() {
	if v.view == nil {
		return
	}
	v.finding = true
	v.bar.box.Show()
	v.head.Refresh()
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v.bar.field)
	}
	v.bar.field.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// closeFind hides the bar, unmarks the matches and gives the keyboard to
// the body.
func (v *bodyViewer) closeFind() {
	v.finding = false
	v.bar.box.Hide()
	v.head.Refresh()
	v.search("")
	v.bar.field.SetText("")
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil && v.view != nil {
		if f, ok := v.focusTarget().(fyne.Focusable); ok {
			c.Focus(f)
		}
	}
}

// focusTarget is the part of the view on screen that takes the keyboard.
func (v *bodyViewer) focusTarget() fyne.CanvasObject {
	switch v.view {
	case fyne.CanvasObject(v.text):
		return v.text.area
	case fyne.CanvasObject(v.md):
		return v.md.area
	}
	return nil
}

// search marks the matches of q in the view and brings the first into
// view.
func (v *bodyViewer) search(q string) {
	v.query = q
	v.found, v.current = 0, -1
	more := false
	if v.view != nil {
		v.found, more = v.view.find(q, maxMatches)
		if v.found > 0 {
			v.current = 0
			v.view.showMatch(0)
		}
	}
	v.bar.show(v.found, v.current, more)
}

// step brings the next (delta +1) or previous (-1) match into view, round
// the end.
func (v *bodyViewer) step(delta int) {
	if v.found == 0 || v.view == nil {
		return
	}
	v.current = ((v.current+delta)%v.found + v.found) % v.found
	v.view.showMatch(v.current)
	_, more := v.found, v.found >= maxMatches
	v.bar.show(v.found, v.current, more)
}

// shortcut handles the viewer's own shortcut, Ctrl+F, from the body.
func (v *bodyViewer) shortcut(s fyne.Shortcut) bool {
	if s.ShortcutName() == shortcutFindInBody.ShortcutName() {
		v.ShowFind()
		return true
	}
	return false
}

func looksValidJSON(s string) bool { return json.Valid([]byte(s)) }
