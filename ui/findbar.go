package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// findBar is the viewer's search: a field, the count ("3 of 17"), the
// previous and next match, and Close. Typing searches at once; Enter goes
// to the next match, Shift+Enter to the previous, Escape closes the bar.
// The viewer does the finding: the bar says what it found.
type findBar struct {
	field *findEntry
	count *widget.Label
	prev  *button
	next  *button
	box   *fyne.Container

	// onQuery runs on every change of the field; onStep moves by one
	// match (-1 or +1); onClose hides the bar.
	onQuery func(q string)
	onStep  func(delta int)
	onClose func()
}

func newFindBar() *findBar {
	f := &findBar{field: newFindEntry(), count: widget.NewLabel("")}
	f.field.SetPlaceHolder("Find in the body")
	f.field.OnChanged = func(q string) { f.onQuery(q) }
	f.field.onEnter = func(back bool) {
		if back {
			f.onStep(-1)
		} else {
			f.onStep(+1)
		}
	}
	f.field.onEscape = func() { f.onClose() }
	f.prev = newButton("", theme.MoveUpIcon(), func() { f.onStep(-1) })
	f.next = newButton("", theme.MoveDownIcon(), func() { f.onStep(+1) })
	closeBtn := newButton("", theme.CancelIcon(), func() { f.onClose() })
	f.prev.Importance, f.next.Importance, closeBtn.Importance = widget.LowImportance, widget.LowImportance, widget.LowImportance
	f.box = container.NewBorder(nil, nil, nil, container.NewHBox(f.count, f.prev, f.next, closeBtn), f.field)
	f.box.Hide()
	f.show(0, -1, false)
	return f
}

// show says how many matches there are (more: at least that many) and
// which is in view (-1: none).
func (f *findBar) show(n, current int, more bool) {
	f.count.Importance = widget.MediumImportance
	switch {
	case f.field.Text == "":
		f.count.SetText("")
	case n == 0:
		f.count.Importance = widget.WarningImportance
		f.count.SetText("No match")
	case more:
		f.count.SetText(fmt.Sprintf("%d of the first %s", current+1, count(int64(n))))
	default:
		f.count.SetText(fmt.Sprintf("%d of %s", current+1, count(int64(n))))
	}
	for _, b := range []*button{f.prev, f.next} {
		switch {
		case n > 0 && b.Disabled():
			b.Enable()
		case n == 0 && !b.Disabled():
			b.Disable()
		}
	}
}

// findEntry is the bar's field: Enter and Shift+Enter step through the
// matches and Escape closes the bar, which Fyne's Entry would swallow.
type findEntry struct {
	widget.Entry
	shift    bool
	onEnter  func(back bool)
	onEscape func()
}

func newFindEntry() *findEntry {
	e := &findEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// KeyDown notes Shift, for Shift+Enter.
func (e *findEntry) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(ev)
}

// KeyUp notes Shift let go.
func (e *findEntry) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(ev)
}

// TypedKey steps on Enter and closes on Escape.
func (e *findEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.onEnter(e.shift)
	case fyne.KeyEscape:
		e.onEscape()
	default:
		e.Entry.TypedKey(ev)
	}
}
