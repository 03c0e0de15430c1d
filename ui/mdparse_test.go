package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// blockLine is a block as one line, for comparison: its kind and nesting,
// then its runs, each with its style.
func blockLine(b mdBlock) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s%d", [...]string{"p", "h", "code", "rule"}[b.kind], b.level)
	if b.depth > 0 {
		fmt.Fprintf(&sb, " depth%d", b.depth)
	}
	if b.quote {
		sb.WriteString(" quote")
	}
	if b.marker != "" {
		sb.WriteString(" " + b.marker)
	}
	for _, r := range b.runs {
		sb.WriteString(" [")
		for i, name := range []string{"b", "i", "c", "s", "a"} {
			if r.style&(1<<i) != 0 {
				sb.WriteString(name)
			}
		}
		if r.link != "" {
			sb.WriteString("(" + r.link + ")")
		}
		sb.WriteString("]" + r.text)
	}
	return sb.String()
}

func docLines(d *mdDoc) []string {
	var out []string
	for _, b := range d.blocks {
		out = append(out, blockLine(b))
	}
	return out
}

// Markdown becomes blocks with their nesting and styled runs; an image is
// its alt text and address, as a link, never loaded.
func TestMarkdownDoc(t *testing.T) {
	src := "# Title\n\nSome **bold** and `code span` and a [link](other.md).\n\n" +
		"- one\n- two\n  1. nested\n\n> quoted *text*\n\n```go\nfunc f() {\n\treturn\n}\n```\n\n---\n\n" +
		"| a | b |\n|---|---|\n| `x` | y |\n\n![a chart](https://example.com/c.png)\n\n- [x] done\n"
	want := []string{
		"h1 []Title",
		"p0 []Some  [b]bold [] and  [c]code span [] and a  [a(other.md)]link [].",
		"p0 depth1 • []one",
		"p0 depth1 • []two",
		"p0 depth2 1. []nested",
		"p0 depth1 quote []quoted  [i]text",
		"code0 [c]func f() {\n    return\n}",
		"rule0",
		"p0 [b]a []  │   [b]b",
		"p0 [c]x []  │  y",
		"p0 [ia(https://example.com/c.png)][image: a chart]",
		"p0 depth1 • []☑ done",
	}
	got := docLines(markdownDoc(src))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// HTML reads as text: its blocks and styles, links and images as links,
// with what a page runs or styles itself with left out, and white space
// made one space outside pre.
func TestHTMLDoc(t *testing.T) {
	src := `<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style><script>alert(1)</script></head>
<body><h1>Head  line</h1><p>Some   <span><b>bold</b></span>
 and <code>code</code>, <a href="x.html">a link</a>.<br>Next line</p>
<ul><li>one</li><li><em>two</em></li></ul><ol><li>first</li></ol>
<pre>  kept
    spaces</pre><blockquote><p>quoted</p></blockquote><hr>
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><img src="p.png" alt="a picture"></body></html>`
	want := []string{
		"h1 []Head line",
		"p0 []Some  [b]bold [] and  [c]code [],  [a(x.html)]a link [].\nNext line",
		"p0 depth1 • []one",
		"p0 depth1 • [i]two",
		"p0 depth1 1. []first",
		"code0 [c]  kept\n    spaces",
		"p0 depth1 quote []quoted",
		"rule0",
		"p0 [b]a []  │   [b]b",
		"p0 []1  │  2",
		"p0 [ia(p.png)][image: a picture]",
	}
	got := docLines(htmlDoc(src))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

// A paragraph or code block longer than maxBlockBytes is cut in joined
// parts at spaces (a code block at line ends), none longer than the
// limit, their text the whole; the list marker stays on the first.
func TestLongBlocksAreCut(t *testing.T) {
	long := strings.Repeat("word `code` **bold** ", 3000)
	code := strings.Repeat("line of code\n", 2000)
	doc := markdownDoc("- " + long + "\n\n```\n" + code + "```\n")
	var para, codeText strings.Builder
	parts := 0
	for i, b := range doc.blocks {
		if len(b.text) > maxBlockBytes {
			t.Errorf("block %d holds %d bytes", i, len(b.text))
		}
		if i > 0 && b.marker != "" {
			t.Errorf("part %d has the marker %q", i, b.marker)
		}
		if b.kind == mdCode {
			codeText.WriteString(b.text)
			if b.joined && !strings.HasSuffix(b.text, "\n") {
				t.Errorf("a code part ends mid-line: %q", b.text[len(b.text)-20:])
			}
		} else {
			para.WriteString(b.text)
			parts++
		}
	}
	if doc.blocks[0].marker != "•" || parts < 2 || !doc.blocks[0].joined || doc.blocks[len(doc.blocks)-1].joined {
		t.Errorf("%d parts; first marker %q joined %v", parts, doc.blocks[0].marker, doc.blocks[0].joined)
	}
	if got, want := para.String(), strings.TrimSpace(strings.NewReplacer("`", "", "**", "").Replace(long)); got != want {
		t.Errorf("the paragraph's parts hold %d bytes, want %d", len(got), len(want))
	}
	if codeText.String() != strings.TrimSuffix(code, "\n") {
		t.Errorf("the code block's parts hold %d bytes, want %d", codeText.Len(), len(code)-1)
	}
}
