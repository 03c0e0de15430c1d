package ui

import (
	"sort"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
)

// Laying out one block of an mdDoc at a width: its words flow into lines,
// broken at spaces (a word is never split unless it is wider than the
// whole line), each word measured once per font (textMeasurer remembers).
// The cost is linear in the block's words, where Fyne's RichText measures
// ever longer prefixes of a paragraph to wrap it. Inline code is words
// like any others, so it wraps where its spaces are, never a letter a
// line. A code block keeps its lines, broken at the width.

// mdPiece is a stretch of one run on one line: a canvas.Text.
type mdPiece struct {
	run        int     // the run it is of; -1 for a list marker
	text       string  // what it draws
	start, end int     // its byte range in the block's text (a marker: 0, 0)
	x, y, w, h float32 // where, in the block
	font       mdFont
}

// mdDecoKind is what a decoration of a block is.
type mdDecoKind uint8

const (
	decoCodeBlock mdDecoKind = iota // behind a code block
	decoCodeSpan                    // behind inline code
	decoQuote                       // the bar at a quote's left
	decoRule                        // a thematic break
	decoUnderline                   // under a link
	decoStrike                      // through struck-out text
)

// mdDeco is a rectangle drawn with a block.
type mdDeco struct {
	kind       mdDecoKind
	x, y, w, h float32
}

// mdLaid is a block laid out at a width.
type mdLaid struct {
	width  float32
	height float32 // with the gap below the block
	pieces []mdPiece
	decos  []mdDeco
}

// mdFont is the size and style a piece is drawn in.
type mdFont struct {
	size  float32
	style fyne.TextStyle
}

// mdMetrics are the theme's sizes the layout uses.
type mdMetrics struct {
	text, heading, subHeading float32 // text sizes
	indent                    float32 // per level of lists and quotes
	gap                       float32 // below a block
	lineGap                   float32 // between lines
	pad                       float32 // inside a code block
}

// fontOf is the font of a run of blk.
func (mm mdMetrics) fontOf(blk *mdBlock, style mdStyle) mdFont {
	f := mdFont{size: mm.text}
	switch {
	case blk.kind == mdHeading && blk.level == 1:
		f.size, f.style.Bold = mm.heading, true
	case blk.kind == mdHeading && blk.level == 2:
		f.size, f.style.Bold = mm.subHeading, true
	case blk.kind == mdHeading:
		f.style.Bold = true
	}
	f.style.Bold = f.style.Bold || style&styleBold != 0
	f.style.Italic = style&styleItalic != 0
	f.style.Monospace = style&styleCode != 0 || blk.kind == mdCode
	return f
}

// layBlock lays blk out at width.
func layBlock(blk *mdBlock, width float32, mm mdMetrics, m *textMeasurer) *mdLaid {
	left := float32(blk.depth) * mm.indent
	f := &flow{m: m, mm: mm, left: left, right: max(width, left+mm.indent), blk: blk, out: &mdLaid{width: width}}
	switch blk.kind {
	case mdRule:
		f.out.decos = append(f.out.decos, mdDeco{kind: decoRule, x: left, y: mm.gap / 2, w: f.right - left, h: 1})
		f.out.height = mm.gap + 1
		return f.out
	case mdCode:
		f.left, f.right, f.y = left+mm.pad, f.right-mm.pad, mm.pad
		f.codeLines(blk)
	case mdHeading:
		f.y = mm.gap / 2 // a heading stands apart from what is above it
		f.runs(blk)
	default:
		f.runs(blk)
	}
	f.endLine()
	bottom := f.y - mm.lineGap
	if blk.kind == mdCode {
		bottom += mm.pad
		if blk.joined {
			bottom -= mm.pad // the next part goes on with the block
		}
		f.out.decos = append([]mdDeco{{kind: decoCodeBlock, x: left, w: width - left, h: bottom}}, f.out.decos...)
	}
	if blk.quote {
		f.out.decos = append(f.out.decos, mdDeco{kind: decoQuote, x: left - mm.indent/2, w: 3, h: bottom})
	}
	f.marker(blk)
	f.out.height = bottom + mm.gap
	if blk.joined {
		f.out.height = bottom + mm.lineGap
	}
	return f.out
}

// flow places pieces line by line.
type flow struct {
	m           *textMeasurer
	mm          mdMetrics
	left, right float32
	x, y        float32 // where the next piece goes; the top of the line
	lineH       float32 // the line's height so far
	lineStart   int     // the line's first piece
	space       float32 // the width of the space before the next word, 0 at a line's start
	blk         *mdBlock
	out         *mdLaid
}

// runs flows the runs of a paragraph or heading.
func (f *flow) runs(blk *mdBlock) {
	f.x = f.left
	for i, r := range blk.runs {
		font := f.mm.fontOf(blk, r.style)
		for j := 0; j < len(r.text); {
			switch c := r.text[j]; {
			case c == '\n':
				f.endLine()
				j++
			case c == ' ' || c == '\t':
				for j < len(r.text) && (r.text[j] == ' ' || r.text[j] == '\t') {
					j++
				}
				if f.x > f.left {
					f.space = f.m.width(" ", font)
				}
			default:
				k := j
				for k < len(r.text) && r.text[k] != ' ' && r.text[k] != '\t' && r.text[k] != '\n' {
					k++
				}
				f.word(blk, i, r.start+j, r.start+k, font)
				j = k
			}
		}
	}
}

// word places the word text[start:end] of run i, on a new line when it
// does not fit on this one.
func (f *flow) word(blk *mdBlock, i, start, end int, font mdFont) {
	w := f.m.width(blk.text[start:end], font)
	if f.x > f.left && f.x+f.space+w > f.right {
		f.endLine()
	}
	if w > f.right-f.left {
		f.longWord(blk, i, start, end, font)
		return
	}
	f.put(blk, i, start, end, w, font)
}

// put places text[start:end] of run i, w wide, after the pending space:
// joined to the line's last piece when that is of the same run.
func (f *flow) put(blk *mdBlock, i, start, end int, w float32, font mdFont) {
	h := f.m.height(font)
	f.lineH = max(f.lineH, h)
	if n := len(f.out.pieces); n > f.lineStart && f.out.pieces[n-1].run == i {
		p := &f.out.pieces[n-1]
		p.end, p.text = end, blk.text[p.start:end]
		p.w = f.x + f.space + w - p.x
	} else {
		f.out.pieces = append(f.out.pieces, mdPiece{run: i, text: blk.text[start:end], start: start, end: end,
			x: f.x + f.space, w: w, h: h, font: font})
	}
	f.x += f.space + w
	f.space = 0
}

// longWord places a word wider than the line, broken where the line is
// full.
func (f *flow) longWord(blk *mdBlock, i, start, end int, font mdFont) {
	for start < end {
		room := f.right - f.x
		cut := start + f.fit(blk.text[start:end], room, font)
		if cut == start { // not even one rune fits: place one anyway
			_, n := utf8.DecodeRuneInString(blk.text[start:end])
			cut = start + n
		}
		f.put(blk, i, start, cut, f.m.width(blk.text[start:cut], font), font)
		start = cut
		if start < end {
			f.endLine()
		}
	}
}

// fit is the length in bytes of the longest prefix of s, cut at a rune,
// that fits in room. It measures at most a few prefixes, none much longer
// than room could hold: no glyph is narrower than a fifth of its size.
func (f *flow) fit(s string, room float32, font mdFont) int {
	limit := int(room/(font.size*0.2)) + 2
	cuts := make([]int, 0, min(len(s), limit)+1)
	for i := range s {
		if len(cuts) > limit {
			break
		}
		cuts = append(cuts, i)
	}
	if len(cuts) <= limit {
		cuts = append(cuts, len(s))
	}
	k := sort.Search(len(cuts), func(k int) bool { return f.m.width(s[:cuts[k]], font) > room })
	return cuts[max(k-1, 0)]
}

// endLine ends the line: its pieces sit on its bottom, and the next line
// starts below it.
func (f *flow) endLine() {
	if f.lineH == 0 {
		f.lineH = f.m.height(mdFont{size: f.mm.text})
	}
	for i := f.lineStart; i < len(f.out.pieces); i++ {
		p := &f.out.pieces[i]
		p.y = f.y + f.lineH - p.h
		f.decorate(p)
	}
	f.y += f.lineH + f.mm.lineGap
	f.x, f.lineH, f.space, f.lineStart = f.left, 0, 0, len(f.out.pieces)
}

// decorate adds what is drawn with a piece: a code span's background, a
// link's underline, a line through struck-out text.
func (f *flow) decorate(p *mdPiece) {
	if p.run < 0 {
		return
	}
	style, d := f.blk.runs[p.run].style, &f.out.decos
	if style&styleCode != 0 && f.blk.kind != mdCode {
		*d = append(*d, mdDeco{kind: decoCodeSpan, x: p.x - 2, y: p.y, w: p.w + 4, h: p.h})
	}
	if style&styleLink != 0 {
		*d = append(*d, mdDeco{kind: decoUnderline, x: p.x, y: p.y + p.h - 2, w: p.w, h: 1})
	}
	if style&styleStrike != 0 {
		*d = append(*d, mdDeco{kind: decoStrike, x: p.x, y: p.y + p.h/2, w: p.w, h: 1})
	}
}

// codeLines flows a code block: its lines as written, each broken where
// the block is full. Its font is monospace, so a line's width is its
// runes: nothing is measured but one character.
func (f *flow) codeLines(blk *mdBlock) {
	f.x = f.left
	font := f.mm.fontOf(blk, styleCode)
	cell := f.m.width("M", font)
	cols := max(int((f.right-f.left)/cell), 1)
	text := blk.text
	for start := 0; ; {
		end := len(text)
		if i := indexByteFrom(text, '\n', start); i >= 0 {
			end = i
		}
		f.lineH = f.m.height(font)
		for s := start; s < end; {
			cut, n := s, 0
			for cut < end && n < cols {
				_, size := utf8.DecodeRuneInString(text[cut:end])
				cut, n = cut+size, n+1
			}
			f.put(blk, 0, s, cut, float32(n)*cell, font)
			if s = cut; s < end {
				f.endLine()
			}
		}
		if end == len(text) {
			return
		}
		f.endLine()
		start = end + 1
	}
}

func indexByteFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// marker puts a list item's marker left of its first line.
func (f *flow) marker(blk *mdBlock) {
	if blk.marker == "" {
		return
	}
	font := mdFont{size: f.mm.text}
	w, h := f.m.width(blk.marker, font), f.m.height(font)
	y := float32(0)
	if len(f.out.pieces) > 0 {
		first := f.out.pieces[0]
		y = first.y + first.h - h
	}
	f.out.pieces = append(f.out.pieces, mdPiece{run: -1, text: blk.marker, x: f.left - w - f.mm.indent/4, y: y, w: w, h: h, font: font})
}
