package ui

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlDoc renders an HTML page as text: its headings, paragraphs, lists,
// quotes, preformatted text, tables (a row a line) and links, in the
// styles the page marks (bold, italic, code, struck out). What a page
// runs or styles itself with (scripts, style sheets, forms) is left out,
// and an image is its alt text and address, never fetched. The parser is
// the HTML5 one browsers follow, so any page, well formed or not, reads.
func htmlDoc(src string) *mdDoc {
	root, err := html.Parse(strings.NewReader(src))
	if err != nil { // html.Parse fails only when reading fails
		return codeDoc(src)
	}
	h := &htmlBuilder{}
	h.node(root, 0, "")
	h.flush(mdParagraph, 0)
	return h.doc()
}

// codeDoc is text as one code block, as written.
func codeDoc(s string) *mdDoc {
	b := &docBuilder{}
	b.add(mdBlock{kind: mdCode, runs: []mdRun{{text: s, style: styleCode}}})
	return b.doc()
}

type htmlBuilder struct {
	docBuilder
	runs []mdRun // the inline text of the block being gathered
	pre  int     // inside this many pre elements: whitespace kept
}

// skipped are the elements whose content is not text for a reader.
var skipped = map[atom.Atom]bool{atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true,
	atom.Template: true, atom.Svg: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true,
	atom.Select: true, atom.Textarea: true, atom.Input: true}

// blockTags end the text before them and start a paragraph of their own.
var blockTags = map[atom.Atom]bool{atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true,
	atom.Header: true, atom.Footer: true, atom.Main: true, atom.Nav: true, atom.Aside: true, atom.Dl: true,
	atom.Dt: true, atom.Dd: true, atom.Figure: true, atom.Figcaption: true, atom.Address: true,
	atom.Details: true, atom.Summary: true, atom.Form: true, atom.Fieldset: true, atom.Body: true, atom.Html: true}

// inlineStyles are the elements that style their text.
var inlineStyles = map[atom.Atom]mdStyle{atom.B: styleBold, atom.Strong: styleBold, atom.I: styleItalic,
	atom.Em: styleItalic, atom.Cite: styleItalic, atom.Var: styleItalic, atom.Code: styleCode,
	atom.Kbd: styleCode, atom.Samp: styleCode, atom.Tt: styleCode, atom.S: styleStrike,
	atom.Strike: styleStrike, atom.Del: styleStrike}

// node gathers n and what it holds, in style, inside link.
func (h *htmlBuilder) node(n *html.Node, style mdStyle, link string) {
	switch n.Type {
	case html.TextNode:
		h.text(n.Data, style, link)
		return
	case html.ElementNode:
		if h.element(n, style, link) {
			return
		}
	}
	h.children(n, style, link)
}

func (h *htmlBuilder) children(n *html.Node, style mdStyle, link string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		h.node(c, style, link)
	}
}

// element gathers an element that is more than its children, and says
// whether it did.
func (h *htmlBuilder) element(n *html.Node, style mdStyle, link string) bool {
	a := n.DataAtom
	switch {
	case skipped[a]:
	case a == atom.Br:
		h.runs = append(h.runs, mdRun{text: "\n", style: style, link: link})
	case a == atom.Td || a == atom.Th:
		h.cell(n, style, link)
	case a == atom.A:
		h.children(n, style, attr(n, "href"))
	case a == atom.Img:
		h.runs = append(h.runs, mdRun{text: "[image: " + attr(n, "alt") + "]", style: style | styleItalic | styleLink, link: attr(n, "src")})
	case inlineStyles[a] != 0:
		h.children(n, style|inlineStyles[a], link)
	default:
		return h.blockElement(n, style, link)
	}
	return true
}

// blockElement gathers an element that makes blocks of its own, and says
// whether it did.
func (h *htmlBuilder) blockElement(n *html.Node, style mdStyle, link string) bool {
	a := n.DataAtom
	if headingLevel(a) == 0 && !blockTags[a] && a != atom.Ul && a != atom.Ol && a != atom.Pre &&
		a != atom.Blockquote && a != atom.Hr && a != atom.Tr {
		return false // an inline element: its text goes on the line
	}
	h.flush(mdParagraph, 0) // what came before ends here
	switch {
	case headingLevel(a) > 0:
		h.children(n, style, link)
		h.flush(mdHeading, headingLevel(a))
	case a == atom.Ul || a == atom.Ol:
		h.list(n, style, link)
	case a == atom.Pre:
		h.pre++
		h.children(n, style|styleCode, link)
		h.pre--
		h.flush(mdCode, 0)
	case a == atom.Blockquote:
		quote := h.quote
		h.quote, h.depth = true, h.depth+1
		h.children(n, style, link)
		h.flush(mdParagraph, 0)
		h.quote, h.depth = quote, h.depth-1
	case a == atom.Hr:
		h.add(mdBlock{kind: mdRule})
	default: // a table row, or a block of text: p, div, section…
		h.children(n, style, link)
		h.flush(mdParagraph, 0)
	}
	return true
}

func headingLevel(a atom.Atom) int {
	return map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}[a]
}

// list gathers a list's items, each indented and marked.
func (h *htmlBuilder) list(n *html.Node, style mdStyle, link string) {
	h.flush(mdParagraph, 0)
	h.depth++
	i := 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Li {
			h.node(c, style, link)
			continue
		}
		h.marker = "•"
		if n.DataAtom == atom.Ol {
			h.marker = fmt.Sprintf("%d.", i)
		}
		h.children(c, style, link)
		h.flush(mdParagraph, 0)
		i++
	}
	h.marker = ""
	h.depth--
}

// cell gathers a table cell, apart from the one before by a bar; a header
// cell is bold.
func (h *htmlBuilder) cell(n *html.Node, style mdStyle, link string) {
	if len(h.runs) > 0 {
		h.runs = append(h.runs, mdRun{text: "  │  "})
	}
	if n.DataAtom == atom.Th {
		style |= styleBold
	}
	h.children(n, style, link)
}

// text gathers text, its runs of white space made one space outside pre.
func (h *htmlBuilder) text(s string, style mdStyle, link string) {
	if s == "" {
		return
	}
	if link != "" {
		style |= styleLink
	}
	if h.pre == 0 {
		words := strings.Join(strings.Fields(s), " ")
		spaced := len(h.runs) == 0 || strings.HasSuffix(h.runs[len(h.runs)-1].text, " ")
		switch {
		case words == "" && spaced:
			return
		case words == "":
			words = " "
		default:
			if isSpace(s[0]) && !spaced {
				words = " " + words
			}
			if isSpace(s[len(s)-1]) {
				words += " "
			}
		}
		s = words
	}
	h.runs = append(h.runs, mdRun{text: s, style: style, link: link})
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

// flush ends the block being gathered as a block of kind.
func (h *htmlBuilder) flush(kind mdBlockKind, level int) {
	runs := h.runs
	h.runs = nil
	if kind != mdCode {
		runs = trimRuns(runs)
	}
	if len(runs) == 0 && h.marker == "" {
		return
	}
	h.add(mdBlock{kind: kind, level: level, runs: runs})
}

// trimRuns drops the white space at either end of a block's runs.
func trimRuns(runs []mdRun) []mdRun {
	for len(runs) > 0 && strings.TrimSpace(runs[0].text) == "" {
		runs = runs[1:]
	}
	for len(runs) > 0 && strings.TrimSpace(runs[len(runs)-1].text) == "" {
		runs = runs[:len(runs)-1]
	}
	if len(runs) > 0 {
		runs[0].text = strings.TrimLeft(runs[0].text, " ")
		runs[len(runs)-1].text = strings.TrimRight(runs[len(runs)-1].text, " ")
	}
	return runs
}

// attr is n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
