package ui

import (
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The textArea's pointer and keys: a press puts the caret, a drag selects
// (scrolling when it leaves the view), a double-click selects a word;
// arrows, Page Up/Down and Home/End scroll; Ctrl+A and Ctrl+C select all
// and copy the selection.

// FocusGained shows the ring.
func (a *textArea) FocusGained() { a.focused = true; a.view.Refresh() }

// FocusLost hides the ring.
func (a *textArea) FocusLost() { a.focused = false; a.view.Refresh() }

// TypedRune does nothing: the text is read only.
func (a *textArea) TypedRune(rune) {}

// TypedKey scrolls.
func (a *textArea) TypedKey(ev *fyne.KeyEvent) {
	v := a.view
	cell, size, off := v.cell(), v.scroll.Size(), v.scroll.Offset
	switch ev.Name {
	case fyne.KeyUp:
		off.Y -= cell.Height
	case fyne.KeyDown:
		off.Y += cell.Height
	case fyne.KeyPageUp:
		off.Y -= size.Height - cell.Height
	case fyne.KeyPageDown:
		off.Y += size.Height - cell.Height
	case fyne.KeyHome:
		off = fyne.Position{}
	case fyne.KeyEnd:
		off.Y = a.MinSize().Height
	case fyne.KeyLeft:
		off.X -= 4 * cell.Width
	case fyne.KeyRight:
		off.X += 4 * cell.Width
	default:
		return
	}
	v.scrollTo(off)
}

// scrollTo moves the view to off, kept inside the area.
func (v *textView) scrollTo(off fyne.Position) {
	min, size := v.area.MinSize(), v.scroll.Size()
	off.X = max(0, min32(off.X, min.Width-size.Width))
	off.Y = max(0, min32(off.Y, min.Height-size.Height))
	v.scroll.ScrollToOffset(off)
	v.area.Refresh()
}

func min32(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

// TypedShortcut selects all or copies; the viewer hears the rest first.
func (a *textArea) TypedShortcut(s fyne.Shortcut) {
	v := a.view
	if v.onShortcut != nil && v.onShortcut(s) {
		return
	}
	switch s := s.(type) {
	case *fyne.ShortcutSelectAll:
		v.sel = textSelection{0, len(v.doc.text)}
		v.area.Refresh()
	case *fyne.ShortcutCopy:
		if text := v.selectedText(); text != "" && s.Clipboard != nil {
			s.Clipboard.SetContent(text)
		}
	}
}

// MouseDown focuses the text and puts the caret, on the primary button.
func (a *textArea) MouseDown(ev *desktop.MouseEvent) {
	if ev.Button != desktop.MouseButtonPrimary {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(a); c != nil {
		c.Focus(a)
	}
	off := a.view.offsetAtPos(ev.Position)
	a.view.sel = textSelection{off, off}
	a.Refresh()
}

// MouseUp ends nothing: a drag ends in DragEnd.
func (a *textArea) MouseUp(*desktop.MouseEvent) {}

// Dragged moves the caret, and the view when the pointer leaves it.
func (a *textArea) Dragged(ev *fyne.DragEvent) {
	v := a.view
	v.sel.caret = v.offsetAtPos(ev.Position)
	off, size := v.scroll.Offset, v.scroll.Size()
	switch {
	case ev.Position.Y < off.Y:
		off.Y = ev.Position.Y
	case ev.Position.Y > off.Y+size.Height:
		off.Y = ev.Position.Y - size.Height
	}
	if !v.wrap {
		switch {
		case ev.Position.X < off.X:
			off.X = ev.Position.X
		case ev.Position.X > off.X+size.Width:
			off.X = ev.Position.X - size.Width
		}
	}
	v.scrollTo(off)
}

// DragEnd keeps the selection.
func (a *textArea) DragEnd() {}

// DoubleTapped selects the word under the pointer.
func (a *textArea) DoubleTapped(ev *fyne.PointEvent) {
	v := a.view
	off := v.offsetAtPos(ev.Position)
	row := v.rows[rowOf(v.rows, off)]
	line := v.doc.text[row.start:row.end]
	s, e := off-row.start, off-row.start
	for s > 0 {
		r, n := utf8.DecodeLastRuneInString(line[:s])
		if !isWordRune(r) {
			break
		}
		s -= n
	}
	for e < len(line) {
		r, n := utf8.DecodeRuneInString(line[e:])
		if !isWordRune(r) {
			break
		}
		e += n
	}
	v.sel = textSelection{row.start + s, row.start + e}
	a.Refresh()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// offsetAtPos is the byte offset nearest to a point of the area.
func (v *textView) offsetAtPos(p fyne.Position) int {
	if len(v.rows) == 0 {
		return 0
	}
	cell := v.cell()
	i := min(max(int((p.Y-v.pad())/cell.Height), 0), len(v.rows)-1)
	col := max(int((p.X-v.pad())/cell.Width+0.5), 0)
	row := v.rows[i]
	return v.doc.offsetAt(row.start, row.end, col)
}
