package ui

import (
	"image/color"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdView shows an mdDoc as a virtualized list of blocks: a block is laid
// out (layBlock) only when it comes on screen, and until then counts with
// an estimate of its height from its length, so a body of any size shows
// its first screen at once. When a laid-out block proves taller or
// shorter than its estimate, the blocks below it move, and the view keeps
// the block at its top where it was. Links are followed on a click. Used
// on the main goroutine only.
type mdView struct {
	widget.BaseWidget

	doc     *mdDoc
	folded  []string  // each block's text with ASCII letters in lower case, made by the first search
	laid    []*mdLaid // each block laid out at width; nil until it is
	heights []float32 // each block's height: laid out, or estimated
	tops    []float32 // where each block starts in the area; the last is the whole height
	width   float32   // the width blocks are laid out at; 0 before the first layout
	matches []mdMatch // the search's matches, in order
	current int       // the match in view, -1 for none
	measure *textMeasurer
	metrics mdMetrics

	scroll *container.Scroll
	area   *mdArea
	// onShortcut is offered every shortcut first; onLink follows a link.
	onShortcut func(fyne.Shortcut) bool
	onLink     func(*url.URL)
}

// mdMatch is a match of the search: a byte range of a block's text.
type mdMatch struct{ block, start, end int }

func newMDView() *mdView {
	v := &mdView{doc: &mdDoc{}, current: -1, measure: newTextMeasurer(nil)}
	v.area = &mdArea{view: v}
	v.area.ExtendBaseWidget(v.area)
	v.scroll = container.NewVScroll(v.area)
	v.scroll.OnScrolled = func(fyne.Position) { v.area.Refresh() }
	v.ExtendBaseWidget(v)
	return v
}

// setDoc shows doc from its top.
func (v *mdView) setDoc(doc *mdDoc, _ string) {
	v.doc, v.folded, v.matches, v.current = doc, nil, nil, -1
	v.laid, v.width = make([]*mdLaid, len(doc.blocks)), 0
	v.heights = make([]float32, len(doc.blocks))
	v.tops = make([]float32, len(doc.blocks)+1)
	v.scroll.Offset = fyne.Position{}
	v.fitWidth()
	v.scroll.Refresh()
}

// clear drops the document and what was measured of it.
func (v *mdView) clear() {
	v.setDoc(&mdDoc{}, "")
	v.measure.forget()
}

// layoutWidth is the width blocks are laid out at: the view's, less its
// padding and the scroll bar.
func (v *mdView) layoutWidth() float32 {
	return v.scroll.Size().Width - 2*v.Theme().Size(theme.SizeNameInnerPadding) - theme.ScrollBarSize()
}

// fitWidth lays the blocks out again when the width changed.
func (v *mdView) fitWidth() { v.relayout(false) }

// relayout lays the blocks out again when the width changed, or, with
// force, anyway (the theme changed): every height is estimated anew and
// the block at the top stays at the top. A new document starts at its top.
func (v *mdView) relayout(force bool) {
	w := v.layoutWidth()
	if w <= 0 || w == v.width && !force {
		return
	}
	anchor, frac := 0, float32(0)
	if v.width > 0 {
		anchor, frac = v.anchor()
	}
	v.width = w
	v.metrics = v.themeMetrics()
	for i := range v.doc.blocks {
		v.laid[i] = nil
		v.heights[i] = v.estimate(i)
	}
	v.retop()
	if anchor < len(v.heights) {
		v.scroll.Offset.Y = v.tops[anchor] + frac*v.heights[anchor]
	}
}

// anchor is the block at the top of the view and how far into it the view
// starts, as a fraction of its height.
func (v *mdView) anchor() (int, float32) {
	if len(v.heights) == 0 {
		return 0, 0
	}
	i := v.blockAt(v.scroll.Offset.Y)
	if v.heights[i] == 0 {
		return i, 0
	}
	return i, (v.scroll.Offset.Y - v.tops[i]) / v.heights[i]
}

// themeMetrics are the theme's sizes, for the layout.
func (v *mdView) themeMetrics() mdMetrics {
	th := v.Theme()
	return mdMetrics{text: th.Size(theme.SizeNameText), heading: th.Size(theme.SizeNameHeadingText),
		subHeading: th.Size(theme.SizeNameSubHeadingText), indent: 3 * th.Size(theme.SizeNameText) / 2,
		gap: th.Size(theme.SizeNameInnerPadding), lineGap: th.Size(theme.SizeNameLineSpacing) / 2,
		pad: th.Size(theme.SizeNameInnerPadding)}
}

// estimate is block i's height from its length, before it is laid out.
func (v *mdView) estimate(i int) float32 {
	blk, mm := &v.doc.blocks[i], v.metrics
	font := mm.fontOf(blk, 0)
	if blk.kind == mdRule {
		return mm.gap + 1
	}
	lineH := v.measure.height(font) + mm.lineGap
	avg := v.measure.width("abcdefghij klmnopqrs tuvwxyz", font) / 29
	cols := max(int((v.width-float32(blk.depth)*mm.indent)/avg), 1)
	lines := strings.Count(blk.text, "\n") + 1 + blk.runes/cols
	h := float32(lines)*lineH + mm.gap
	if blk.kind == mdCode {
		h += 2 * mm.pad
	}
	return h
}

// retop adds the heights up into the tops.
func (v *mdView) retop() {
	y := float32(0)
	for i, h := range v.heights {
		v.tops[i] = y
		y += h
	}
	v.tops[len(v.heights)] = y
}

// blockAt is the block at height y of the area.
func (v *mdView) blockAt(y float32) int {
	i := sort.Search(len(v.heights), func(i int) bool { return v.tops[i+1] > y })
	return min(i, max(len(v.heights)-1, 0))
}

// lay lays block i out, if it is not yet, and says whether its height
// changed.
func (v *mdView) lay(i int) (*mdLaid, bool) {
	if l := v.laid[i]; l != nil {
		return l, false
	}
	l := layBlock(&v.doc.blocks[i], v.width, v.metrics, v.measure)
	v.laid[i] = l
	changed := l.height != v.heights[i]
	v.heights[i] = l.height
	return l, changed
}

// layVisible lays out the blocks in view; when heights changed, the
// block at the top keeps its place, and it says so.
func (v *mdView) layVisible() (first, last int, moved bool) {
	off, h := v.scroll.Offset.Y, v.scroll.Size().Height
	first = v.blockAt(off)
	within := off - v.tops[first]
	changed := false
	y := v.tops[first]
	for last = first; last < len(v.heights) && y < off+h; last++ {
		_, ch := v.lay(last)
		changed = changed || ch
		y += v.heights[last]
	}
	if !changed {
		return first, last - 1, false
	}
	v.retop()
	v.scroll.Offset.Y = max(min(v.tops[first]+within, v.tops[len(v.heights)]-h), 0)
	return first, last - 1, true
}

// find marks where q occurs in the blocks' text, ignoring case.
func (v *mdView) find(q string, limit int) (int, bool) {
	v.matches, v.current = v.matches[:0], -1
	if q == "" {
		v.area.Refresh()
		return 0, false
	}
	var re *regexp.Regexp
	if !isASCII(q) {
		re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(q))
	} else if v.folded == nil {
		v.folded = make([]string, len(v.doc.blocks))
		for i := range v.doc.blocks {
			v.folded[i] = foldASCII(v.doc.blocks[i].text)
		}
	}
	for i := range v.doc.blocks {
		for _, m := range v.blockMatches(i, q, re, limit+1-len(v.matches)) {
			v.matches = append(v.matches, mdMatch{i, m.start, m.end})
		}
		if len(v.matches) > limit {
			v.matches = v.matches[:limit]
			v.area.Refresh()
			return limit, true
		}
	}
	v.area.Refresh()
	return len(v.matches), false
}

// blockMatches finds q in block i, at most n times.
func (v *mdView) blockMatches(i int, q string, re *regexp.Regexp, n int) []textMatch {
	var out []textMatch
	if re != nil {
		for _, m := range re.FindAllStringIndex(v.doc.blocks[i].text, n) {
			out = append(out, textMatch{m[0], m[1]})
		}
		return out
	}
	text, q := v.folded[i], foldASCII(q)
	for j := 0; len(out) < n; {
		k := strings.Index(text[j:], q)
		if k < 0 {
			break
		}
		out = append(out, textMatch{j + k, j + k + len(q)})
		j += k + len(q)
	}
	return out
}

// showMatch brings match i into view, a third of the way down.
func (v *mdView) showMatch(i int) {
	v.current = i
	m := v.matches[i]
	if _, changed := v.lay(m.block); changed {
		v.retop()
	}
	y := v.tops[m.block]
	for _, p := range v.laid[m.block].pieces {
		if p.run >= 0 && p.start <= m.start && m.start < max(p.end, p.start+1) {
			y += p.y
			break
		}
	}
	off, h := v.scroll.Offset.Y, v.scroll.Size().Height
	if y < off || y+v.metrics.text*2 > off+h {
		v.scroll.Offset.Y = max(min(y-h/3, v.tops[len(v.heights)]-h), 0)
	}
	v.scroll.Refresh()
}

// CreateRenderer draws the scroll, and a ring while the view has the
// keyboard.
func (v *mdView) CreateRenderer() fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = 2
	return &mdViewRenderer{v: v, ring: ring}
}

type mdViewRenderer struct {
	v    *mdView
	ring *canvas.Rectangle
}

func (r *mdViewRenderer) Layout(size fyne.Size) {
	r.v.scroll.Resize(size)
	r.ring.Resize(size)
	r.v.fitWidth()
	r.v.scroll.Refresh()
}

func (r *mdViewRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 60) }

func (r *mdViewRenderer) Refresh() {
	if r.v.width > 0 && r.v.themeMetrics() != r.v.metrics { // the theme changed its sizes
		r.v.measure.forget()
		r.v.relayout(true)
	}
	r.ring.StrokeColor = color.Transparent
	if r.v.area.focused {
		r.ring.StrokeColor = r.v.Theme().Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	}
	r.ring.Refresh()
	r.v.scroll.Refresh()
}

func (r *mdViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.scroll, r.ring}
}
func (r *mdViewRenderer) Destroy() {}
