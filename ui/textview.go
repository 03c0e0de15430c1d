package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textView shows a textDoc as a virtualized list of monospace rows: only
// the rows on screen exist, as one canvas.Text each, so showing a body
// costs the same whatever its size, and scrolling replaces a few rows.
// With wrapping off, a row shows only the columns on screen. It draws the
// search's matches and the person's selection behind the text, and takes
// the keys of a text area: arrows and pages scroll, Ctrl+A selects all,
// Ctrl+C copies the selection. Used on the main goroutine only.
type textView struct {
	widget.BaseWidget

	doc     *textDoc
	wrap    bool
	rows    []textRow
	cols    int // the columns rows were wrapped at; 0: not laid out
	matches []textMatch
	current int // the match in view, -1 for none
	sel     textSelection

	scroll   *container.Scroll
	area     *textArea
	cellSize fyne.Size // one monospace character; zero: measure again
	// onShortcut is offered every shortcut first (the viewer's Ctrl+F).
	onShortcut func(fyne.Shortcut) bool
}

// textSelection is a byte range the person dragged over: from anchor to
// caret, in either order.
type textSelection struct{ anchor, caret int }

func (s textSelection) bounds() (int, int) { return min(s.anchor, s.caret), max(s.anchor, s.caret) }

func newTextView() *textView {
	v := &textView{doc: newTextDoc(""), wrap: true, current: -1}
	v.area = &textArea{view: v}
	v.area.ExtendBaseWidget(v.area)
	v.scroll = container.NewVScroll(v.area)
	v.scroll.OnScrolled = func(fyne.Position) { v.area.Refresh() }
	v.ExtendBaseWidget(v)
	return v
}

// setDoc shows doc from its top, with no matches and no selection.
func (v *textView) setDoc(doc *textDoc) {
	v.doc, v.matches, v.current, v.sel = doc, nil, -1, textSelection{}
	v.cols = 0
	v.relayout()
	v.scroll.ScrollToOffset(fyne.Position{})
	v.area.Refresh()
}

// setWrap turns wrapping on or off, keeping the row at the top in view.
func (v *textView) setWrap(wrap bool) {
	if wrap == v.wrap {
		return
	}
	top := v.topOffset()
	v.wrap, v.cols = wrap, 0
	v.scroll.Direction = container.ScrollVerticalOnly
	if !wrap {
		v.scroll.Direction = container.ScrollBoth
	}
	v.relayout()
	v.scroll.ScrollToOffset(fyne.NewPos(0, v.rowY(rowOf(v.rows, top))))
	v.scroll.Refresh()
}

// topOffset is the byte offset of the first row in view.
func (v *textView) topOffset() int {
	if len(v.rows) == 0 {
		return 0
	}
	cell := v.cell()
	i := int((v.scroll.Offset.Y - v.pad()) / cell.Height)
	return v.rows[min(max(i, 0), len(v.rows)-1)].start
}

// relayout wraps the rows again when the width in columns changed.
func (v *textView) relayout() {
	cols := v.viewCols()
	if !v.wrap {
		cols = -1
	}
	if cols == v.cols && v.rows != nil {
		return
	}
	v.cols = cols
	v.rows = v.doc.rows(cols, v.wrap)
	v.scroll.Refresh()
}

// viewCols is how many columns fit across the view.
func (v *textView) viewCols() int {
	w := v.scroll.Size().Width - 2*v.pad() - theme.ScrollBarSize()
	return max(int(w/v.cell().Width), 8)
}

// cell is the size of one monospace character.
func (v *textView) cell() fyne.Size {
	if v.cellSize.IsZero() {
		v.cellSize = fyne.MeasureText("M", v.textSize(), fyne.TextStyle{Monospace: true})
	}
	return v.cellSize
}

func (v *textView) textSize() float32 { return v.Theme().Size(theme.SizeNameText) }
func (v *textView) pad() float32      { return v.Theme().Size(theme.SizeNameInnerPadding) }

// rowY is the top of row i in the area.
func (v *textView) rowY(i int) float32 { return v.pad() + float32(i)*v.cell().Height }

// find marks where q occurs (up to limit matches), none of them current.
func (v *textView) find(q string, limit int) (int, bool) {
	ms, more := v.doc.find(q, limit)
	v.matches, v.current = ms, -1
	v.area.Refresh()
	return len(ms), more
}

// showMatch makes match i the current one and brings it into view.
func (v *textView) showMatch(i int) {
	v.current = i
	v.reveal(v.matches[i].start, v.matches[i].end)
	v.area.Refresh()
}

// reveal scrolls the text between two offsets into view, a third of the
// way down, unless it is in view already.
func (v *textView) reveal(start, end int) {
	row := rowOf(v.rows, start)
	cell, size, off := v.cell(), v.scroll.Size(), v.scroll.Offset
	y := v.rowY(row)
	if y < off.Y || y+cell.Height > off.Y+size.Height {
		off.Y = max(y-size.Height/3, 0)
	}
	if !v.wrap {
		r := v.rows[row]
		x0 := v.pad() + float32(v.doc.columns(r.start, start))*cell.Width
		x1 := x0 + float32(v.doc.columns(start, end))*cell.Width
		if x0 < off.X || x1 > off.X+size.Width-theme.ScrollBarSize() {
			off.X = max(x0-size.Width/3, 0)
		}
	}
	v.scroll.ScrollToOffset(off)
}

// selectedText is the selection's text, "" when nothing is selected.
func (v *textView) selectedText() string {
	s, e := v.sel.bounds()
	return v.doc.text[s:e]
}

// shownRows is the text of the rows on screen, for tests and screen
// readers of the markup.
func (v *textView) shownRows() []string {
	var out []string
	for _, t := range v.area.texts() {
		out = append(out, t.Text)
	}
	return out
}

// CreateRenderer draws the scroll and, while the text has the keyboard, a
// ring around it.
func (v *textView) CreateRenderer() fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = 2
	return &textViewRenderer{v: v, ring: ring}
}

type textViewRenderer struct {
	v    *textView
	ring *canvas.Rectangle
}

func (r *textViewRenderer) Layout(size fyne.Size) {
	r.v.scroll.Resize(size)
	r.ring.Resize(size)
	if r.v.wrap {
		r.v.relayout()
	}
}

func (r *textViewRenderer) MinSize() fyne.Size {
	return fyne.NewSize(8*r.v.cell().Width, 3*r.v.cell().Height)
}

func (r *textViewRenderer) Refresh() {
	r.v.cellSize = fyne.Size{} // the theme may have changed the text size
	r.ring.StrokeColor = color.Transparent
	if r.v.area.focused {
		r.ring.StrokeColor = r.v.Theme().Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	}
	r.ring.Refresh()
	r.v.area.Refresh()
}

func (r *textViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.scroll, r.ring}
}
func (r *textViewRenderer) Destroy() {}

// visibleRange is the rows and columns of the area in view.
func (v *textView) visibleRange() (first, last, col0, col1 int) {
	cell, size, off := v.cell(), v.scroll.Size(), v.scroll.Offset
	first = max(int((off.Y-v.pad())/cell.Height), 0)
	last = min(int(math.Ceil(float64((off.Y+size.Height-v.pad())/cell.Height))), len(v.rows)-1)
	col0 = max(int((off.X-v.pad())/cell.Width), 0)
	col1 = col0 + int(math.Ceil(float64(size.Width/cell.Width))) + 1
	if v.wrap {
		col0, col1 = 0, math.MaxInt
	}
	return first, last, col0, col1
}
