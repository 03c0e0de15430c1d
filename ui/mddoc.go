package ui

import (
	"strings"
	"unicode/utf8"
)

// An mdDoc is a rendered body (Markdown, or HTML read as text) as a flat
// list of blocks: paragraphs, headings, code blocks and rules, each with
// its nesting (list items, quotes) and its runs of styled text. The
// mdView lays out only the blocks on screen, so a body of any size shows
// at once. It is pure: no Fyne; a block's text is what search looks in.
type mdDoc struct {
	blocks []mdBlock
}

// mdBlockKind is what a block is.
type mdBlockKind uint8

const (
	mdParagraph mdBlockKind = iota
	mdHeading
	mdCode // a code block: monospace, its lines as written
	mdRule // a thematic break
)

// mdBlock is one block of a rendered body.
type mdBlock struct {
	kind   mdBlockKind
	level  int    // a heading's level, 1 to 6
	depth  int    // how deep in lists and quotes: the block is indented by it
	quote  bool   // in a quote: drawn with a bar at its left
	marker string // a list item's bullet or number, on its first line
	runs   []mdRun
	text   string // the runs' text, one after the other
	runes  int    // the runes of text, for the height estimate
	joined bool   // the next block goes on with this one (a long block cut in parts): no gap between
}

// maxBlockBytes is the most text a block holds: a longer paragraph or code
// block is cut in parts, at a space or a line's end, so that what comes on
// screen is laid out in parts of this size, however long the paragraph.
const maxBlockBytes = 8 << 10

// mdStyle is how a run is drawn.
type mdStyle uint8

const (
	styleBold mdStyle = 1 << iota
	styleItalic
	styleCode
	styleStrike
	styleLink
)

// mdRun is text of one style; a link's run carries its destination as
// written (resolved against the body's uri when followed).
type mdRun struct {
	text  string
	style mdStyle
	link  string
	start int // where the run starts in its block's text
}

// docBuilder gathers blocks; Markdown and HTML each feed it.
type docBuilder struct {
	blocks []mdBlock
	depth  int
	quote  bool
	marker string // the marker of the list item whose first block comes next
}

// add appends a block with the builder's nesting, taking the pending list
// marker, and merges its neighbouring runs of one style; a block longer
// than maxBlockBytes goes in joined parts.
func (b *docBuilder) add(blk mdBlock) {
	for _, part := range cutBlock(blk) {
		b.add1(part)
	}
}

// cutBlock cuts blk's runs into parts of at most about maxBlockBytes, at a
// space (or, in a code block, a newline) of a run, each part joined to the
// next. A run with no such place in reach is cut where it must be.
func cutBlock(blk mdBlock) []mdBlock {
	size := 0
	for _, r := range blk.runs {
		size += len(r.text)
	}
	if size <= maxBlockBytes || blk.kind == mdRule {
		return []mdBlock{blk}
	}
	sep := byte(' ')
	if blk.kind == mdCode {
		sep = '\n'
	}
	var parts []mdBlock
	cur, n := blk, 0
	cur.runs = nil
	for _, r := range blk.runs {
		for n+len(r.text) > maxBlockBytes {
			room := maxBlockBytes - n
			cut := strings.LastIndexByte(r.text[:max(room, 0)], sep) + 1
			if cut <= 0 && n == 0 {
				cut = cutAtRune(r.text, maxBlockBytes)
			}
			if cut > 0 {
				head := r
				head.text = r.text[:cut]
				cur.runs = append(cur.runs, head)
				r.text = r.text[cut:]
			}
			cur.joined = true
			parts = append(parts, cur)
			cur = mdBlock{kind: blk.kind, level: blk.level}
			n = 0
		}
		cur.runs = append(cur.runs, r)
		n += len(r.text)
	}
	cur.joined = blk.joined
	return append(parts, cur)
}

// cutAtRune is the last rune boundary of s at or before n.
func cutAtRune(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// add1 appends one block.
func (b *docBuilder) add1(blk mdBlock) {
	blk.depth, blk.quote = b.depth, b.quote
	blk.marker, b.marker = b.marker, ""
	var sb strings.Builder
	runs := blk.runs[:0]
	for _, r := range blk.runs {
		if r.text == "" {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].style == r.style && runs[n-1].link == r.link {
			runs[n-1].text += r.text
		} else {
			r.start = sb.Len()
			runs = append(runs, r)
		}
		sb.WriteString(r.text)
	}
	blk.runs, blk.text = runs, sb.String()
	blk.runes = len([]rune(blk.text))
	if blk.kind != mdRule && blk.text == "" && blk.marker == "" {
		return
	}
	b.blocks = append(b.blocks, blk)
}

func (b *docBuilder) doc() *mdDoc { return &mdDoc{blocks: b.blocks} }

// renderedDoc is the rendered document of a Markdown or HTML body.
func renderedDoc(b shownBody) *mdDoc {
	if b.kind == kindHTML {
		return htmlDoc(b.text)
	}
	return markdownDoc(b.text)
}
