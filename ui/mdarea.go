package ui

import (
	"image/color"
	"net/url"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdArea is the mdView's scrolled content: as tall as every block, it
// holds objects for the blocks in view only. A click on a link follows
// it; the pointer is a hand over one.
type mdArea struct {
	widget.BaseWidget
	view    *mdView
	focused bool
	overURL bool // the pointer is over a link
	r       *mdAreaRenderer
}

var (
	_ fyne.Focusable     = (*mdArea)(nil)
	_ fyne.Tappable      = (*mdArea)(nil)
	_ desktop.Hoverable  = (*mdArea)(nil)
	_ desktop.Cursorable = (*mdArea)(nil)
)

// MinSize is every block's height, laid out or estimated.
func (a *mdArea) MinSize() fyne.Size {
	v := a.view
	if len(v.tops) == 0 {
		return fyne.Size{}
	}
	return fyne.NewSize(0, v.tops[len(v.tops)-1]+2*v.Theme().Size(theme.SizeNameInnerPadding))
}

func (a *mdArea) CreateRenderer() fyne.WidgetRenderer {
	a.r = &mdAreaRenderer{a: a}
	return a.r
}

// mdAreaRenderer keeps pools of texts and rectangles and shows as many as
// the blocks in view need.
type mdAreaRenderer struct {
	a       *mdArea
	texts   []*canvas.Text
	rects   []*canvas.Rectangle
	shown   int
	marks   int
	objects []fyne.CanvasObject
}

func (r *mdAreaRenderer) Layout(fyne.Size)             { r.Refresh() }
func (r *mdAreaRenderer) MinSize() fyne.Size           { return r.a.MinSize() }
func (r *mdAreaRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *mdAreaRenderer) Destroy()                     {}

// Refresh lays out the blocks in view and places their objects.
func (r *mdAreaRenderer) Refresh() {
	v := r.a.view
	r.shown, r.marks = 0, 0
	if len(v.heights) > 0 && v.width > 0 && v.scroll.Size().Height > 0 {
		first, last, moved := v.layVisible()
		if moved { // the scroll bar must hear of the new height
			v.scroll.Refresh()
			return
		}
		for i := first; i <= last; i++ {
			r.placeBlock(i)
		}
	}
	r.objects = r.objects[:0]
	for _, m := range r.rects[:r.marks] {
		r.objects = append(r.objects, m)
	}
	for _, t := range r.texts[:r.shown] {
		r.objects = append(r.objects, t)
	}
	canvas.Refresh(r.a) // once for all: each object's own Refresh costs a stack trace (Fyne's main-goroutine check)
}

// placeBlock places block i's decorations, matches and pieces.
func (r *mdAreaRenderer) placeBlock(i int) {
	v := r.a.view
	l := v.laid[i]
	pad := v.Theme().Size(theme.SizeNameInnerPadding)
	origin := fyne.NewPos(pad, pad+v.tops[i])
	for _, d := range l.decos {
		r.rect(origin.AddXY(d.x, d.y), fyne.NewSize(d.w, d.h), r.decoColor(d.kind))
	}
	r.markMatches(i, origin)
	blk := &v.doc.blocks[i]
	for _, p := range l.pieces {
		t := r.text()
		t.Text, t.TextSize, t.TextStyle = p.text, p.font.size, p.font.style
		t.Color = r.color(theme.ColorNameForeground)
		if p.run >= 0 && blk.runs[p.run].style&styleLink != 0 {
			t.Color = r.color(theme.ColorNameHyperlink)
		}
		t.Move(origin.AddXY(p.x, p.y))
		t.Resize(fyne.NewSize(p.w, p.h))
	}
}

// markMatches marks the search's matches in block i.
func (r *mdAreaRenderer) markMatches(i int, origin fyne.Position) {
	v := r.a.view
	k := sort.Search(len(v.matches), func(k int) bool { return v.matches[k].block >= i })
	for ; k < len(v.matches) && v.matches[k].block == i; k++ {
		m, fill := v.matches[k], viewerColor(v, colorNameMatch)
		if k == v.current {
			fill = viewerColor(v, colorNameMatchCurrent)
		}
		for _, p := range v.laid[i].pieces {
			if p.run < 0 || p.end <= m.start || p.start >= m.end {
				continue
			}
			x0 := v.measure.measure(p.text[:max(m.start-p.start, 0)], p.font.size, p.font.style).Width
			x1 := v.measure.measure(p.text[:min(m.end, p.end)-p.start], p.font.size, p.font.style).Width
			r.rect(origin.AddXY(p.x+x0, p.y), fyne.NewSize(max(x1-x0, 2), p.h), fill)
		}
	}
}

// decoColor is the colour of a decoration.
func (r *mdAreaRenderer) decoColor(k mdDecoKind) color.Color {
	switch k {
	case decoCodeBlock, decoCodeSpan:
		return r.color(theme.ColorNameInputBackground)
	case decoQuote:
		return r.color(theme.ColorNameDisabled)
	case decoRule:
		return r.color(theme.ColorNameSeparator)
	case decoUnderline:
		return r.color(theme.ColorNameHyperlink)
	}
	return r.color(theme.ColorNameForeground)
}

func (r *mdAreaRenderer) color(name fyne.ThemeColorName) color.Color {
	return r.a.view.Theme().Color(name, fyne.CurrentApp().Settings().ThemeVariant())
}

// text takes the next text of the pool.
func (r *mdAreaRenderer) text() *canvas.Text {
	if r.shown == len(r.texts) {
		r.texts = append(r.texts, canvas.NewText("", nil))
	}
	r.shown++
	return r.texts[r.shown-1]
}

// rect takes the next rectangle of the pool and places it.
func (r *mdAreaRenderer) rect(pos fyne.Position, size fyne.Size, fill color.Color) {
	if r.marks == len(r.rects) {
		r.rects = append(r.rects, canvas.NewRectangle(color.Transparent))
	}
	m := r.rects[r.marks]
	r.marks++
	m.FillColor = fill
	m.Move(pos)
	m.Resize(size)
}

// linkAt is the link under a point of the area, or "".
func (a *mdArea) linkAt(pos fyne.Position) string {
	v := a.view
	if len(v.heights) == 0 {
		return ""
	}
	pad := v.Theme().Size(theme.SizeNameInnerPadding)
	i := v.blockAt(pos.Y - pad)
	l := v.laid[i]
	if l == nil {
		return ""
	}
	x, y := pos.X-pad, pos.Y-pad-v.tops[i]
	for _, p := range l.pieces {
		if p.run >= 0 && x >= p.x && x < p.x+p.w && y >= p.y && y < p.y+p.h {
			return v.doc.blocks[i].runs[p.run].link
		}
	}
	return ""
}

// Tapped follows the link under the pointer.
func (a *mdArea) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(a); c != nil {
		c.Focus(a)
	}
	link := a.linkAt(ev.Position)
	if link == "" || a.view.onLink == nil {
		return
	}
	if u, err := url.Parse(link); err == nil {
		a.view.onLink(u)
	}
}

// Cursor is a hand over a link.
func (a *mdArea) Cursor() desktop.Cursor {
	if a.overURL {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

func (a *mdArea) MouseIn(ev *desktop.MouseEvent)    { a.overURL = a.linkAt(ev.Position) != "" }
func (a *mdArea) MouseMoved(ev *desktop.MouseEvent) { a.overURL = a.linkAt(ev.Position) != "" }
func (a *mdArea) MouseOut()                         { a.overURL = false }

func (a *mdArea) FocusGained()   { a.focused = true; a.view.Refresh() }
func (a *mdArea) FocusLost()     { a.focused = false; a.view.Refresh() }
func (a *mdArea) TypedRune(rune) {}

// TypedKey scrolls: arrows by a line, Page Up/Down by a page, Home/End.
func (a *mdArea) TypedKey(ev *fyne.KeyEvent) {
	v := a.view
	off, h, line := v.scroll.Offset, v.scroll.Size().Height, v.metrics.text*1.5
	switch ev.Name {
	case fyne.KeyUp:
		off.Y -= line
	case fyne.KeyDown:
		off.Y += line
	case fyne.KeyPageUp:
		off.Y -= h - line
	case fyne.KeyPageDown:
		off.Y += h - line
	case fyne.KeyHome:
		off.Y = 0
	case fyne.KeyEnd:
		off.Y = a.MinSize().Height
	default:
		return
	}
	off.Y = max(0, min32(off.Y, a.MinSize().Height-h))
	v.scroll.ScrollToOffset(off)
	a.Refresh()
}

// TypedShortcut offers the viewer its shortcuts (Ctrl+F).
func (a *mdArea) TypedShortcut(s fyne.Shortcut) {
	if a.view.onShortcut != nil {
		a.view.onShortcut(s)
	}
}

// shownPieces is the text of the pieces on screen, for tests and scripts.
func (v *mdView) shownPieces() []string {
	if v.area.r == nil {
		return nil
	}
	var out []string
	for _, t := range v.area.r.texts[:v.area.r.shown] {
		out = append(out, t.Text)
	}
	return out
}
