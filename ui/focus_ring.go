package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
)

// The keyboard focus is drawn as a ring just outside the edge of the
// control that has it, in the theme's focus ring colour, which has a
// contrast of at least 3:1 against every background a control sits on, in
// both variants (WCAG 2.2's non-text contrast; TestContrast computes it).
// Fyne's own widgets mark the focus faintly or not at all: a button or a
// select takes a tint of 1.1:1, a check box a halo of the same tint, a
// list's current row the hover colour, a selectable label nothing. So
// every control the screens can focus is a Fyne widget with the ring
// added (button, check, selectBox, keyEntry, keyList, radioChoice, link)
// or one of the app's own (keyRow, tapLabel, copyValue); TestFocusRings
// walks the windows and fails on any other.

// colorNameFocusRing is the theme's colour of the focus ring.
const colorNameFocusRing fyne.ThemeColorName = "attache-focus-ring"

// The ring's geometry: a line ringWidth wide. Around a control drawn as a
// box (a button, an entry, a select) it runs ringGap outside the box, so
// that it never covers the control's own fill (a primary button's blue)
// or edge (an entry's border) and shows against the background around
// it. Around the others (a label, a check box, a list, a row), whose
// bounds hold padding around what they draw, it runs just inside their
// bounds, where no neighbour and no scroll's edge cuts it off.
const (
	ringWidth = 2
	ringGap   = 1
)

// focusRing is what a control that draws the ring keeps: whether it has
// the focus, whether the ring goes round its box (outside its bounds), the
// ring once its renderer made it, and what to do when the focus arrives
// (followFocus scrolls the control into view).
type focusRing struct {
	focused bool
	box     bool
	rect    *canvas.Rectangle
	onFocus func()
}

// ringed is a control that draws the focus ring.
type ringed interface {
	fyne.Focusable
	focusRingOf() *focusRing
}

// gained and lost set the state; the control's Refresh shows it.
func (f *focusRing) gained() {
	f.focused = true
	if f.onFocus != nil {
		f.onFocus()
	}
}
func (f *focusRing) lost() { f.focused = false }

// withRing draws f's ring over inner, a control's own renderer.
func withRing(inner fyne.WidgetRenderer, f *focusRing) fyne.WidgetRenderer {
	f.rect = canvas.NewRectangle(color.Transparent)
	f.rect.StrokeWidth = ringWidth
	f.rect.Hide()
	r := &ringRenderer{WidgetRenderer: inner, ring: f}
	r.paint()
	return r
}

// ringRenderer is a control's renderer with the ring on top.
type ringRenderer struct {
	fyne.WidgetRenderer
	ring  *focusRing
	inner []fyne.CanvasObject // inner's objects as last seen
	objs  []fyne.CanvasObject // the same, and the ring
}

// Objects are the control's own, and the ring last, over them.
func (r *ringRenderer) Objects() []fyne.CanvasObject {
	in := r.WidgetRenderer.Objects()
	if !sameObjects(in, r.inner) {
		r.inner = in
		r.objs = append(append(make([]fyne.CanvasObject, 0, len(in)+1), in...), r.ring.rect)
	}
	return r.objs
}

func sameObjects(a, b []fyne.CanvasObject) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Layout lays the control out and puts the ring around it.
func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	out := float32(0)
	if r.ring.box {
		out = ringGap + ringWidth
	}
	r.ring.rect.Move(fyne.NewPos(-out, -out))
	r.ring.rect.Resize(size.AddWidthHeight(2*out, 2*out))
}

// Refresh refreshes the control and shows the ring while it has the
// focus, in the current theme's colour.
func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.paint()
	r.ring.rect.Refresh()
}

func (r *ringRenderer) paint() {
	rect := r.ring.rect
	rect.StrokeColor = ringColor()
	rect.CornerRadius = theme.InputRadiusSize()
	if r.ring.box {
		rect.CornerRadius += ringGap + ringWidth
	}
	rect.Hidden = !r.ring.focused
}

// ringColor is the app's theme's focus ring colour; another theme (Fyne's
// test theme) has none, and gives its primary colour.
func ringColor() color.Color {
	if _, ok := fyne.CurrentApp().Settings().Theme().(*readableTheme); ok {
		return theme.Color(colorNameFocusRing)
	}
	return theme.Color(theme.ColorNamePrimary)
}

// escapeToWindow hands Escape, which a focused control does not use, to
// the key handler of o's window, as if nothing had the focus: the window
// cancels a read in progress, an open dialog closes (closeOnEscape). It
// reports whether there was a handler.
func escapeToWindow(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape {
		return false
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	if c == nil || c.OnTypedKey() == nil {
		return false
	}
	c.OnTypedKey()(ev)
	return true
}

// ringRoom pads o by the ring's reach, so that the ring of a boxed control
// at o's edge is not cut off by the scroll o is shown in.
func ringRoom(o fyne.CanvasObject) fyne.CanvasObject {
	out := float32(ringGap + ringWidth)
	return container.New(layout.NewCustomPaddedLayout(out, out, out, out), o)
}

// followFocus makes scroll bring into view each control of its content
// that takes the focus, as Tab moves through them (Fyne's Scroll does not
// follow the focus). It reaches the controls laid out in containers and
// the options of a radioChoice; call it again when the content changes.
func followFocus(scroll *container.Scroll) {
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *radioChoice:
			v.onFocus = func(opt fyne.CanvasObject) { scrollIntoView(scroll, opt) }
		case ringed:
			v.focusRingOf().onFocus = func() { scrollIntoView(scroll, o) }
		}
	}
	walk(scroll.Content)
}

// scrollIntoView scrolls scroll, the least it takes, so that o (inside its
// content) shows whole, or its top when it is taller than the view.
func scrollIntoView(scroll *container.Scroll, o fyne.CanvasObject) {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(scroll.Content).Y
	off := scroll.Offset
	switch h := o.Size().Height; {
	case top < off.Y:
		off.Y = top
	case top+h > off.Y+scroll.Size().Height:
		off.Y = min(top, top+h-scroll.Size().Height)
	default:
		return
	}
	scroll.ScrollToOffset(off)
}
