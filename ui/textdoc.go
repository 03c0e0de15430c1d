package ui

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// A textDoc is a text body as the viewer shows it: its lines, found once,
// so that a row on screen is a slice of the text and nothing is laid out
// that is not on screen. It is pure: no Fyne, no I/O; the textView draws
// it. A column is a rune: the viewer draws in a monospace font.
type textDoc struct {
	text   string // the text shown: see displayText
	starts []int  // the byte offset at which each line starts
	ascii  bool   // text is ASCII only, so a byte is a column
	widest int    // the widest line, in columns
	folded string // text with ASCII letters in lower case, made by the first search
}

// tabWidth is the tab stop of the viewer, in columns.
const tabWidth = 4

// newTextDoc prepares s for display.
func newTextDoc(s string) *textDoc {
	d := &textDoc{}
	d.text, d.ascii = displayText(s)
	d.starts = append(make([]int, 0, strings.Count(d.text, "\n")+1), 0)
	for i := 0; ; {
		j := strings.IndexByte(d.text[i:], '\n')
		if j < 0 {
			d.widest = max(d.widest, d.columns(i, len(d.text)))
			break
		}
		d.widest = max(d.widest, d.columns(i, i+j))
		i += j + 1
		d.starts = append(d.starts, i)
	}
	return d
}

// displayText is s as the viewer draws it, and whether it is ASCII only.
// A line ends at \n, \r\n or a lone \r; a tab becomes spaces to the next
// tab stop; a control character becomes its symbol from Unicode's Control
// Pictures (␀, ␛…), so an escape sequence shows instead of vanishing;
// bytes that are not UTF-8 become U+FFFD. Text that needs none of this is
// returned as is, without a copy.
func displayText(s string) (string, bool) {
	clean, ascii := true, true
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= 0x80:
			ascii = false
		case b < 0x20 && b != '\n', b == 0x7f:
			clean = false
		}
	}
	if clean && (ascii || utf8.ValidString(s)) {
		return s, ascii
	}
	var b strings.Builder
	b.Grow(len(s))
	col := 0
	for i, r := range s {
		switch {
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			continue
		case r == '\r' || r == '\n':
			b.WriteByte('\n')
			col = 0
			continue
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		case r < 0x20:
			r = 0x2400 + r
		case r == 0x7f:
			r = '\u2421'
		}
		b.WriteRune(r) // an invalid byte ranges as utf8.RuneError, written as U+FFFD
		col++
	}
	out := b.String()
	return out, isASCII(out)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// lines is how many lines the document has (an empty one has one).
func (d *textDoc) lines() int { return len(d.starts) }

// lineRange is the byte range of line i, without its newline.
func (d *textDoc) lineRange(i int) (start, end int) {
	start, end = d.starts[i], len(d.text)
	if i+1 < len(d.starts) {
		end = d.starts[i+1] - 1
	}
	return start, end
}

// columns is how many columns the text between two offsets takes.
func (d *textDoc) columns(start, end int) int {
	if d.ascii {
		return end - start
	}
	return utf8.RuneCountInString(d.text[start:end])
}

// offsetAt is the byte offset of column col of the row that starts at
// start and ends at end, or end when the row is shorter.
func (d *textDoc) offsetAt(start, end, col int) int {
	if col <= 0 {
		return start
	}
	if d.ascii || col >= end-start { // a rune is at least a byte
		return start + min(col, end-start)
	}
	for i := range d.text[start:end] {
		if col == 0 {
			return start + i
		}
		col--
	}
	return end
}

// textRow is one row on screen: a byte range of the text, without the
// newline. A line longer than the view is several rows when lines wrap.
type textRow struct{ start, end int }

// rows lays the document out: one row a line, or, when wrap is set, rows
// of at most cols columns, broken after the last space that leaves the row
// at least half full, else at cols.
func (d *textDoc) rows(cols int, wrap bool) []textRow {
	out := make([]textRow, 0, len(d.starts))
	cols = max(cols, 1)
	for i := range d.starts {
		start, end := d.lineRange(i)
		if !wrap || end-start <= cols { // a byte is at least a column
			out = append(out, textRow{start, end})
			continue
		}
		out = d.wrapLine(out, start, end, cols)
	}
	return out
}

// wrapLine appends the rows of one line wrapped at cols.
func (d *textDoc) wrapLine(out []textRow, start, end, cols int) []textRow {
	for start < end {
		cut := d.offsetAt(start, end, cols)
		if cut >= end {
			return append(out, textRow{start, end})
		}
		mid := d.offsetAt(start, cut, cols/2)
		if sp := strings.LastIndexByte(d.text[mid:cut+1], ' '); sp >= 0 && mid+sp > start {
			cut = mid + sp + 1 // the space ends the row, out of sight
		}
		out = append(out, textRow{start, cut})
		start = cut
	}
	return out
}

// rowOf is the index of the row that holds byte offset off.
func rowOf(rows []textRow, off int) int {
	i := sort.Search(len(rows), func(i int) bool { return rows[i].start > off })
	return max(i-1, 0)
}

// textMatch is a byte range of the text that a search found.
type textMatch struct{ start, end int }

// find returns where q occurs in the text, ignoring case, in order, up to
// limit matches, and whether there are more. An ASCII query is looked for
// in a lower-cased copy of the text (its offsets are the text's, since
// only ASCII letters change); any other query with a case-insensitive
// regular expression.
func (d *textDoc) find(q string, limit int) ([]textMatch, bool) {
	if q == "" {
		return nil, false
	}
	var out []textMatch
	if isASCII(q) {
		if d.folded == "" {
			d.folded = foldASCII(d.text)
		}
		q = foldASCII(q)
		for i := 0; len(out) <= limit; {
			j := strings.Index(d.folded[i:], q)
			if j < 0 {
				break
			}
			out = append(out, textMatch{i + j, i + j + len(q)})
			i += j + len(q)
		}
	} else {
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(q))
		for _, m := range re.FindAllStringIndex(d.text, limit+1) {
			out = append(out, textMatch{m[0], m[1]})
		}
	}
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

// foldASCII lower-cases the ASCII letters of s and leaves every other byte.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
