package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
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
	// onShortcut, when set, is offered every shortcut first, and says
	// whether it took it (the console's Ctrl+F, which the Entry would
	// swallow).
	onShortcut func(fyne.Shortcut) bool
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

// TypedShortcut offers s to the owner first.
func (e *keyEntry) TypedShortcut(s fyne.Shortcut) {
	if e.onShortcut != nil && e.onShortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

// dismissable is what closeOnEscape needs of a dialog.
type dismissable interface {
	dialog.Dialog
	SetOnClosed(func())
}

// closeOnEscape makes Escape close d, and Enter run submit (when not nil),
// while d is open: from the window when no field has the focus, and from
// each of fields when one has. A field that is a *keyEntry hears both
// keys; a plain one-line *widget.Entry hears Enter only (Fyne's Entry
// swallows Escape). It restores the window's own key handler when d
// closes. Call it before d.Show.
func closeOnEscape(win fyne.Window, d dismissable, submit func(), fields ...fyne.CanvasObject) {
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
		var e *widget.Entry
		switch f := f.(type) {
		case *keyEntry:
			f.onEscape, e = d.Hide, &f.Entry
		case *widget.Entry:
			e = f
		}
		if e != nil && submit != nil && !e.MultiLine {
			e.OnSubmitted = func(string) { submit() }
		}
	}
	d.SetOnClosed(func() { c.SetOnTypedKey(prev) })
}

// keyList is a List that Enter acts on: it chooses the item the keys are
// on (as Space does in Fyne's List) and then runs onEnter, if set. Up and
// Down move through the items as in Fyne's List.
type keyList struct {
	widget.List
	onEnter func()
}

func newKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *keyList {
	l := &keyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey chooses the current item on Enter; other keys go to the List.
func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name != fyne.KeyReturn && ev.Name != fyne.KeyEnter {
		l.List.TypedKey(ev)
		return
	}
	l.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if l.onEnter != nil {
		l.onEnter()
	}
}

// focusList moves the keyboard into l, on its first item, when it has any.
func focusList(win fyne.Window, l fyne.Focusable, n int) {
	if n > 0 {
		win.Canvas().Focus(l)
	}
}

// keyRow is a row of a plain container that the keyboard can be on, for
// lists built of containers rather than a List (the memory search's
// results): Up and Down hand over to the row before or after, Enter runs
// onEnter, and the row is highlighted while it has the focus.
type keyRow struct {
	widget.BaseWidget
	content fyne.CanvasObject
	focused bool
	onEnter func()
	onUp    func()
	onDown  func()
}

func newKeyRow(content fyne.CanvasObject) *keyRow {
	r := &keyRow{content: content}
	r.ExtendBaseWidget(r)
	return r
}

func (r *keyRow) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(color.Transparent)
	bg.CornerRadius = theme.InputRadiusSize()
	return &keyRowRenderer{row: r, bg: bg, objects: []fyne.CanvasObject{bg, r.content}}
}

func (r *keyRow) FocusGained()   { r.focused = true; r.Refresh() }
func (r *keyRow) FocusLost()     { r.focused = false; r.Refresh() }
func (r *keyRow) TypedRune(rune) {}
func (r *keyRow) TypedKey(ev *fyne.KeyEvent) {
	var f func()
	switch ev.Name {
	case fyne.KeyUp:
		f = r.onUp
	case fyne.KeyDown:
		f = r.onDown
	case fyne.KeyReturn, fyne.KeyEnter:
		f = r.onEnter
	}
	if f != nil {
		f()
	}
}

type keyRowRenderer struct {
	row     *keyRow
	bg      *canvas.Rectangle
	objects []fyne.CanvasObject
}

func (k *keyRowRenderer) Layout(size fyne.Size) {
	k.bg.Resize(size)
	k.row.content.Resize(size)
}
func (k *keyRowRenderer) MinSize() fyne.Size           { return k.row.content.MinSize() }
func (k *keyRowRenderer) Objects() []fyne.CanvasObject { return k.objects }
func (k *keyRowRenderer) Destroy()                     {}
func (k *keyRowRenderer) Refresh() {
	k.bg.FillColor = color.Transparent
	if k.row.focused {
		k.bg.FillColor = theme.Color(theme.ColorNameFocus)
	}
	k.bg.Refresh()
	k.row.content.Refresh()
}

// focusRow moves the keyboard onto rows[i] and scrolls it into view in
// scroll (when not nil); it does nothing when there is no such row.
func focusRow(win fyne.Window, scroll *container.Scroll, rows []*keyRow, i int) {
	if i < 0 || i >= len(rows) {
		return
	}
	win.Canvas().Focus(rows[i])
	if scroll == nil {
		return
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(rows[i]).Y - d.AbsolutePositionForObject(scroll.Content).Y
	off := scroll.Offset
	switch h := rows[i].Size().Height; {
	case top < off.Y:
		off.Y = top
	case top+h > off.Y+scroll.Size().Height:
		off.Y = top + h - scroll.Size().Height
	default:
		return
	}
	scroll.ScrollToOffset(off)
}
