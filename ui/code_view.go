package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// codeLineMax is the longest line codeView shows whole. A longer one is
// broken at it, each piece but the last ending in codeBreak, so that the
// break shows: one line of text is one texture to the GPU, and a line of
// 10,000 characters is wider than most allow.
const codeLineMax = 1000

// codeBreak ends a piece of a line that codeView broke.
const codeBreak = " ↩"

// codeView shows text (JSON, a diff) in a fixed-width font with each line
// whole: a line wider than the view scrolls sideways instead of wrapping,
// so no token (a key, a path, a URL) is cut in two. A dialog's monospace
// text wrapped wherever the width ran out ("proje/ct").
func codeView(text string) *container.Scroll {
	l := widget.NewLabel(breakLongLines(text, codeLineMax))
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Wrapping = fyne.TextWrapOff
	return container.NewScroll(l)
}

// jsonView is codeView of raw indented, two spaces a level, when it is
// JSON, else of raw as it is.
func jsonView(raw string) *container.Scroll {
	var b bytes.Buffer
	if json.Indent(&b, []byte(raw), "", "  ") == nil {
		raw = b.String()
	}
	return codeView(raw)
}

// breakLongLines breaks every line of text longer than max runes into
// pieces of max runes, each but the last ending in codeBreak.
func breakLongLines(text string, max int) string {
	if len(text) <= max {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		r := []rune(line)
		if len(r) <= max {
			continue
		}
		var b strings.Builder
		for len(r) > max {
			b.WriteString(string(r[:max]) + codeBreak + "\n")
			r = r[max:]
		}
		b.WriteString(string(r))
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}
