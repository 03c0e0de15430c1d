package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keyEntry is an Entry that draws the focus ring and hands Down and
// Escape to its owner: Down moves from a search or template field into the
// list below it, and Escape closes the dialog the field is in (or, with no
// owner for it, goes to the window, which cancels a read in progress).
// Fyne's Entry ignores both, and a focused widget receives every key, so
// the owner never hears of them otherwise. A multi-line keyEntry with
// tabOut leaves Tab to move the focus (Fyne's inserts a tab), and
// onSubmit, when set, runs on Ctrl+Enter.
type keyEntry struct {
	widget.Entry
	ring     focusRing
	onDown   func()
	onEscape func()
	onSubmit func()
	tabOut   bool
	// onShortcut, when set, is offered every shortcut first, and says
	// whether it took it (the console's Ctrl+F, which the Entry would
	// swallow).
	onShortcut func(fyne.Shortcut) bool
}

func newKeyEntry() *keyEntry {
	e := &keyEntry{ring: focusRing{box: true}}
	e.ExtendBaseWidget(e)
	return e
}

// newMultiLineKeyEntry is widget.NewMultiLineEntry as a keyEntry.
func newMultiLineKeyEntry() *keyEntry {
	e := &keyEntry{ring: focusRing{box: true}}
	e.MultiLine, e.Wrapping = true, fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// newPasswordKeyEntry is widget.NewPasswordEntry as a keyEntry, its
// reveal button one that draws the focus ring.
func newPasswordKeyEntry() *keyEntry {
	e := &keyEntry{ring: focusRing{box: true}}
	e.Password, e.Wrapping = true, fyne.TextWrap(fyne.TextTruncateClip)
	reveal := newButton("", theme.VisibilityOffIcon(), nil)
	reveal.Importance = widget.LowImportance
	reveal.OnTapped = func() {
		e.Password = !e.Password
		reveal.SetIcon(map[bool]fyne.Resource{true: theme.VisibilityOffIcon(), false: theme.VisibilityIcon()}[e.Password])
		e.Refresh()
	}
	e.ActionItem = reveal
	e.ExtendBaseWidget(e)
	return e
}

// CreateRenderer is the Entry's with the ring.
func (e *keyEntry) CreateRenderer() fyne.WidgetRenderer {
	return withRing(e.Entry.CreateRenderer(), &e.ring)
}

// FocusGained shows the ring.
func (e *keyEntry) FocusGained() { e.ring.gained(); e.Entry.FocusGained() }

// FocusLost hides it.
func (e *keyEntry) FocusLost() { e.ring.lost(); e.Entry.FocusLost() }

func (e *keyEntry) focusRingOf() *focusRing { return &e.ring }

// AcceptsTab is false for a field that leaves Tab to the focus.
func (e *keyEntry) AcceptsTab() bool { return e.MultiLine && !e.tabOut }

// TypedKey handles Down and Escape when the owner asked for them, hands
// an unclaimed Escape to the window, and leaves every other key to the
// Entry.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	switch {
	case ev.Name == fyne.KeyDown && e.onDown != nil && !e.MultiLine:
		e.onDown()
	case ev.Name == fyne.KeyEscape && e.onEscape != nil:
		e.onEscape()
	case ev.Name == fyne.KeyEscape:
		escapeToWindow(e, ev)
	default:
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut runs onSubmit on Ctrl+Enter (Cmd+Enter on a Mac), offers
// every other shortcut to the owner first, and leaves the rest to the
// Entry.
func (e *keyEntry) TypedShortcut(s fyne.Shortcut) {
	if e.onSubmit != nil && isSubmit(s) {
		e.onSubmit()
		return
	}
	if e.onShortcut != nil && e.onShortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

// isSubmit reports whether s is Ctrl+Enter (shortcutSubmit).
func isSubmit(s fyne.Shortcut) bool {
	c, ok := s.(*desktop.CustomShortcut)
	return ok && c.Modifier == fyne.KeyModifierShortcutDefault && (c.KeyName == fyne.KeyReturn || c.KeyName == fyne.KeyEnter)
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

// keyList is a List that draws the focus ring and that Enter acts on: it
// chooses the item the keys are on (as Space does in Fyne's List) and then
// runs onEnter, if set. Up and Down move through the items as in Fyne's
// List; Escape goes to the window.
type keyList struct {
	widget.List
	ring    focusRing
	onEnter func()
}

func newKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *keyList {
	l := &keyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// CreateRenderer is the List's with the ring.
func (l *keyList) CreateRenderer() fyne.WidgetRenderer {
	return withRing(l.List.CreateRenderer(), &l.ring)
}

// FocusGained shows the ring.
func (l *keyList) FocusGained() { l.ring.gained(); l.List.FocusGained() }

// FocusLost hides it.
func (l *keyList) FocusLost() { l.ring.lost(); l.List.FocusLost() }

func (l *keyList) focusRingOf() *focusRing { return &l.ring }

// TypedKey chooses the current item on Enter; other keys go to the List.
func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	if escapeToWindow(l, ev) {
		return
	}
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
// onEnter, and the row draws the focus ring while it has the focus.
type keyRow struct {
	widget.BaseWidget
	content fyne.CanvasObject
	ring    focusRing
	onEnter func()
	onUp    func()
	onDown  func()
}

func newKeyRow(content fyne.CanvasObject) *keyRow {
	r := &keyRow{content: content}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the content out under a tint and the ring.
func (r *keyRow) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(color.Transparent)
	bg.CornerRadius = theme.InputRadiusSize()
	return withRing(&keyRowRenderer{row: r, bg: bg, objects: []fyne.CanvasObject{bg, r.content}}, &r.ring)
}

// FocusGained shows the ring.
func (r *keyRow) FocusGained() { r.ring.gained(); r.Refresh() }

// FocusLost hides it.
func (r *keyRow) FocusLost() { r.ring.lost(); r.Refresh() }

func (r *keyRow) focusRingOf() *focusRing { return &r.ring }

// TypedRune ignores text.
func (r *keyRow) TypedRune(rune) {}

// TypedKey moves with Up and Down, runs onEnter on Enter, and hands
// Escape to the window.
func (r *keyRow) TypedKey(ev *fyne.KeyEvent) {
	if escapeToWindow(r, ev) {
		return
	}
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
	if k.row.ring.focused {
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
	if scroll != nil {
		scrollIntoView(scroll, rows[i])
	}
}
