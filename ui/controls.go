package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Fyne's button, check box, select and hyperlink with the focus ring (see
// focus_ring.go). Each hands Escape to its window. Use them in place of
// widget.NewButton, NewCheck, NewSelect and NewHyperlink.

// button is a widget.Button that draws the focus ring. Enter presses it,
// as Space does.
type button struct {
	widget.Button
	ring focusRing
}

// newButton is widget.NewButtonWithIcon (icon may be nil).
func newButton(label string, icon fyne.Resource, tapped func()) *button {
	b := &button{ring: focusRing{box: true}}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer is the button's with the ring.
func (b *button) CreateRenderer() fyne.WidgetRenderer {
	return withRing(b.Button.CreateRenderer(), &b.ring)
}

// FocusGained shows the ring.
func (b *button) FocusGained() { b.ring.gained(); b.Button.FocusGained() }

// FocusLost hides it.
func (b *button) FocusLost() { b.ring.lost(); b.Button.FocusLost() }

func (b *button) focusRingOf() *focusRing { return &b.ring }

// TypedKey presses the button on Enter and Space.
func (b *button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		b.Tapped(nil)
	case fyne.KeyEscape:
		escapeToWindow(b, ev)
	default:
		b.Button.TypedKey(ev)
	}
}

// check is a widget.Check that draws the focus ring.
type check struct {
	widget.Check
	ring focusRing
}

// newCheck is widget.NewCheck.
func newCheck(label string, changed func(bool)) *check {
	c := &check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer is the check box's with the ring.
func (c *check) CreateRenderer() fyne.WidgetRenderer {
	return withRing(c.Check.CreateRenderer(), &c.ring)
}

// FocusGained shows the ring.
func (c *check) FocusGained() { c.ring.gained(); c.Check.FocusGained() }

// FocusLost hides it.
func (c *check) FocusLost() { c.ring.lost(); c.Check.FocusLost() }

func (c *check) focusRingOf() *focusRing { return &c.ring }

// TypedKey hands Escape to the window.
func (c *check) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// selectBox is a widget.Select that draws the focus ring.
type selectBox struct {
	widget.Select
	ring focusRing
}

// newSelect is widget.NewSelect.
func newSelect(options []string, changed func(string)) *selectBox {
	s := &selectBox{ring: focusRing{box: true}}
	s.Options, s.OnChanged = options, changed
	s.PlaceHolder = "(Select one)" // widget.NewSelect's
	s.ExtendBaseWidget(s)
	return s
}

// CreateRenderer is the select's with the ring.
func (s *selectBox) CreateRenderer() fyne.WidgetRenderer {
	return withRing(s.Select.CreateRenderer(), &s.ring)
}

// FocusGained shows the ring.
func (s *selectBox) FocusGained() { s.ring.gained(); s.Select.FocusGained() }

// FocusLost hides it.
func (s *selectBox) FocusLost() { s.ring.lost(); s.Select.FocusLost() }

func (s *selectBox) focusRingOf() *focusRing { return &s.ring }

// TypedKey hands Escape to the window.
func (s *selectBox) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// link is a widget.Hyperlink that draws the focus ring (Fyne's own is
// the faint focus tint).
type link struct {
	widget.Hyperlink
	ring focusRing
}

// newLink is widget.NewHyperlink.
func newLink(text string) *link {
	l := &link{}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

// CreateRenderer is the hyperlink's with the ring.
func (l *link) CreateRenderer() fyne.WidgetRenderer {
	return withRing(l.Hyperlink.CreateRenderer(), &l.ring)
}

// FocusGained shows the ring.
func (l *link) FocusGained() { l.ring.gained(); l.Hyperlink.FocusGained() }

// FocusLost hides it.
func (l *link) FocusLost() { l.ring.lost(); l.Hyperlink.FocusLost() }

func (l *link) focusRingOf() *focusRing { return &l.ring }

// TypedKey opens the link on Enter as on Space, and hands Escape to the
// window.
func (l *link) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		l.Hyperlink.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	case fyne.KeyEscape:
		escapeToWindow(l, ev)
	default:
		l.Hyperlink.TypedKey(ev)
	}
}
