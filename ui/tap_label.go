package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tapLabel is a label that does something when clicked (a server card's
// title), with a pointer cursor to say so. The keyboard reaches it too:
// it takes the focus, draws the focus ring, and Enter or Space does what
// a click does.
type tapLabel struct {
	widget.Label
	ring  focusRing
	onTap func()
}

func newTapLabel(text string, style fyne.TextStyle, onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Text, l.TextStyle = text, style
	l.ExtendBaseWidget(l)
	return l
}

// CreateRenderer is the label's with the ring.
func (l *tapLabel) CreateRenderer() fyne.WidgetRenderer {
	return withRing(l.Label.CreateRenderer(), &l.ring)
}

// Tapped runs onTap.
func (l *tapLabel) Tapped(*fyne.PointEvent) {
	if l.onTap != nil {
		l.onTap()
	}
}

// Cursor is the pointer.
func (l *tapLabel) Cursor() desktop.Cursor { return desktop.PointerCursor }

// FocusGained shows the ring.
func (l *tapLabel) FocusGained() { l.ring.gained(); l.Refresh() }

// FocusLost hides it.
func (l *tapLabel) FocusLost() { l.ring.lost(); l.Refresh() }

func (l *tapLabel) focusRingOf() *focusRing { return &l.ring }

// TypedRune ignores text.
func (l *tapLabel) TypedRune(rune) {}

// TypedKey does what a click does on Enter and Space, and hands Escape to
// the window.
func (l *tapLabel) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		l.Tapped(nil)
	default:
		escapeToWindow(l, ev)
	}
}

// Disabled is true while the label has nothing to do on a tap: the
// focus then passes it by.
func (l *tapLabel) Disabled() bool { return l.onTap == nil }

// Enable and Disable do nothing: onTap says whether the label acts.
func (l *tapLabel) Enable()  {}
func (l *tapLabel) Disable() {}
