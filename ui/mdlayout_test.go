package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"github.com/google/go-cmp/cmp"
)

// fixedMeasurer measures every rune 8 wide and every line 16 tall, so a
// layout can be worked out by hand.
func fixedMeasurer() *textMeasurer {
	return newTextMeasurer(func(s string, _ float32, _ fyne.TextStyle) fyne.Size {
		return fyne.NewSize(8*float32(utf8.RuneCountInString(s)), 16)
	})
}

var testMetrics = mdMetrics{text: 14, heading: 24, subHeading: 18, indent: 20, gap: 8, lineGap: 2, pad: 6}

// lines is a laid-out block's text, a line each, from its pieces' rows.
func laidLines(l *mdLaid) []string {
	var out []string
	var y float32 = -1
	for _, p := range l.pieces {
		if p.run < 0 {
			continue
		}
		if p.y != y {
			out = append(out, "")
			y = p.y
		}
		if out[len(out)-1] != "" {
			out[len(out)-1] += "|"
		}
		out[len(out)-1] += p.text
	}
	return out
}

// Words flow into lines broken at spaces; a piece is a run's stretch of a
// line; a word wider than the line is broken where the line is full.
func TestLayBlock(t *testing.T) {
	doc := markdownDoc("The `resource` list and a verylongwordthatdoesnotfit end.")
	got := laidLines(layBlock(&doc.blocks[0], 80, testMetrics, fixedMeasurer())) // 10 runes a line
	want := []string{"The", "resource", "list and a", "verylongwo", "rdthatdoes", "notfit", "end."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines at 80 (-want +got):\n%s", diff)
	}
	code := markdownDoc("```\n    indented line that is long\nx\n```")
	l := layBlock(&code.blocks[0], 80+2*testMetrics.pad, testMetrics, fixedMeasurer())
	if diff := cmp.Diff([]string{"    indent", "ed line th", "at is long", "x"}, laidLines(l)); diff != "" {
		t.Errorf("a code block's lines (-want +got):\n%s", diff)
	}
	if l.decos[0].kind != decoCodeBlock || l.height != 4*16+3*2+2*testMetrics.pad+testMetrics.gap {
		t.Errorf("code block: first decoration %d, height %v", l.decos[0].kind, l.height)
	}
}

// Inline code wraps at word boundaries, whatever the width: no line of
// the layout holds part of a code word that fits on a line of its own.
// (Fyne's RichText put "resource" a letter a line when it began where not
// even a letter fitted: issue 21.)
func TestInlineCodeWrapsAtWords(t *testing.T) {
	doc := markdownDoc("- `get-annotated-message` (tools/get-annotated-message.ts): Returns a `text` message annotated " +
		"with `priority` and `audience` based on `messageType` (`error`, `success`, or `debug`); can include an " +
		"annotated `image`, and a `resource` link, with `resourceType` (`text` or `blob`).")
	blk := &doc.blocks[0]
	var words []string
	for _, r := range blk.runs {
		if r.style&styleCode != 0 {
			words = append(words, r.text)
		}
	}
	for width := float32(120); width <= 600; width += 4 {
		l := layBlock(blk, width, testMetrics, fixedMeasurer())
		for _, p := range l.pieces {
			if p.run < 0 || blk.runs[p.run].style&styleCode == 0 {
				continue
			}
			whole := false
			for _, w := range words {
				whole = whole || strings.Contains(w, p.text) && (p.text == w || 8*float32(len(w)) > width-testMetrics.indent)
			}
			if !whole {
				t.Fatalf("at %v px a line holds %q of the code words %q", width, p.text, words)
			}
		}
	}
}
