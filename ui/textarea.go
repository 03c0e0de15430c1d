package ui

import (
	"image/color"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textArea is the textView's scrolled content: as tall as every row, it
// holds objects for the rows in view only. It takes the pointer (drag to
// select, double-click for a word) and, once clicked or tabbed to, the
// keyboard.
type textArea struct {
	widget.BaseWidget
	view    *textView
	focused bool
	r       *textAreaRenderer
}

var (
	_ fyne.Focusable      = (*textArea)(nil)
	_ fyne.Shortcutable   = (*textArea)(nil)
	_ fyne.Draggable      = (*textArea)(nil)
	_ desktop.Mouseable   = (*textArea)(nil)
	_ fyne.DoubleTappable = (*textArea)(nil)
)

// MinSize is every row, and with wrapping off the widest line.
func (a *textArea) MinSize() fyne.Size {
	v := a.view
	cell, pad := v.cell(), v.pad()
	h := 2*pad + float32(len(v.rows))*cell.Height
	if v.wrap {
		return fyne.NewSize(0, h)
	}
	return fyne.NewSize(2*pad+float32(v.doc.widest)*cell.Width, h)
}

func (a *textArea) CreateRenderer() fyne.WidgetRenderer {
	a.r = &textAreaRenderer{a: a}
	return a.r
}

// texts are the row objects in view.
func (a *textArea) texts() []*canvas.Text {
	if a.r == nil {
		return nil
	}
	return a.r.texts[:a.r.shown]
}

// textAreaRenderer keeps pools of texts and rectangles and shows as many
// of them as the view needs.
type textAreaRenderer struct {
	a       *textArea
	texts   []*canvas.Text
	rects   []*canvas.Rectangle
	shown   int // texts in use
	marks   int // rects in use
	objects []fyne.CanvasObject
}

func (r *textAreaRenderer) Layout(fyne.Size)             { r.Refresh() }
func (r *textAreaRenderer) MinSize() fyne.Size           { return r.a.MinSize() }
func (r *textAreaRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *textAreaRenderer) Destroy()                     {}

// Refresh places the rows in view, and the marks behind them.
func (r *textAreaRenderer) Refresh() {
	v := r.a.view
	r.shown, r.marks = 0, 0
	if len(v.rows) > 0 && v.scroll.Size().Height > 0 {
		first, last, col0, col1 := v.visibleRange()
		r.markSelection(first, last)
		r.markMatches(first, last)
		for i := first; i <= last; i++ {
			r.placeRow(i, col0, col1)
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

// placeRow shows row i's columns col0 to col1.
func (r *textAreaRenderer) placeRow(i, col0, col1 int) {
	v := r.a.view
	row, cell := v.rows[i], v.cell()
	s := v.doc.offsetAt(row.start, row.end, col0)
	e := v.doc.offsetAt(s, row.end, col1-col0)
	if s == e {
		return
	}
	t := r.text()
	t.Text = v.doc.text[s:e]
	t.Move(fyne.NewPos(v.pad()+float32(col0)*cell.Width, v.rowY(i)))
	t.Resize(fyne.NewSize(float32(v.doc.columns(s, e))*cell.Width, cell.Height))
}

// text takes the next text of the pool, styled by the theme.
func (r *textAreaRenderer) text() *canvas.Text {
	if r.shown == len(r.texts) {
		r.texts = append(r.texts, canvas.NewText("", nil))
	}
	t := r.texts[r.shown]
	r.shown++
	v := r.a.view
	t.Color = v.Theme().Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	t.TextSize, t.TextStyle = v.textSize(), fyne.TextStyle{Monospace: true}
	return t
}

// mark puts a rectangle of fill over the columns c0 to c1 of row i.
func (r *textAreaRenderer) mark(i, c0, c1 int, fill color.Color) {
	if c1 <= c0 {
		c1 = c0 + 1 // an empty part of a row, at a line's end, still shows
	}
	if r.marks == len(r.rects) {
		r.rects = append(r.rects, canvas.NewRectangle(color.Transparent))
	}
	m := r.rects[r.marks]
	r.marks++
	v := r.a.view
	cell := v.cell()
	m.FillColor = fill
	m.Move(fyne.NewPos(v.pad()+float32(c0)*cell.Width, v.rowY(i)))
	m.Resize(fyne.NewSize(float32(c1-c0)*cell.Width, cell.Height))
}

// markRange marks the part of rows first to last that lies between two
// byte offsets.
func (r *textAreaRenderer) markRange(first, last, start, end int, fill color.Color) {
	v := r.a.view
	for i := max(rowOf(v.rows, start), first); i <= last; i++ {
		row := v.rows[i]
		if row.start > end || row.start == end && end > start {
			return
		}
		s, e := max(start, row.start), min(end, row.end)
		r.mark(i, v.doc.columns(row.start, s), v.doc.columns(row.start, e), fill)
	}
}

func (r *textAreaRenderer) markSelection(first, last int) {
	v := r.a.view
	if s, e := v.sel.bounds(); s < e {
		r.markRange(first, last, s, e, viewerColor(v, theme.ColorNameSelection))
	}
}

// markMatches marks the matches in rows first to last; the current one
// stands out.
func (r *textAreaRenderer) markMatches(first, last int) {
	v := r.a.view
	top, bottom := v.rows[first].start, v.rows[last].end
	k := sort.Search(len(v.matches), func(k int) bool { return v.matches[k].end > top })
	for ; k < len(v.matches) && v.matches[k].start <= bottom; k++ {
		fill := viewerColor(v, colorNameMatch)
		if k == v.current {
			fill = viewerColor(v, colorNameMatchCurrent)
		}
		r.markRange(first, last, v.matches[k].start, v.matches[k].end, fill)
	}
}
