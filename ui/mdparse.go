package ui

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// markdownParser reads CommonMark with GitHub's tables, strikethrough,
// task lists and bare links, as the READMEs servers hand out are written.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// markdownDoc renders Markdown source into blocks. An image becomes its
// alt text and address, never fetched: a body must not make the app call
// an address the server chose.
func markdownDoc(src string) *mdDoc {
	source := []byte(src)
	m := &mdBuilder{src: source}
	m.block(markdownParser.Parse(text.NewReader(source)))
	return m.doc()
}

type mdBuilder struct {
	docBuilder
	src []byte
}

// block adds the blocks of n and of what it holds.
func (m *mdBuilder) block(n ast.Node) {
	switch t := n.(type) {
	case *ast.Heading:
		m.add(mdBlock{kind: mdHeading, level: t.Level, runs: m.inlines(n, 0, "")})
	case *ast.Paragraph, *ast.TextBlock:
		m.add(mdBlock{kind: mdParagraph, runs: m.inlines(n, 0, "")})
	case *ast.ThematicBreak:
		m.add(mdBlock{kind: mdRule})
	case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
		m.add(mdBlock{kind: mdCode, runs: []mdRun{{text: m.lines(n), style: styleCode}}})
	case *ast.Blockquote:
		quote := m.quote
		m.quote, m.depth = true, m.depth+1
		m.children(n)
		m.quote, m.depth = quote, m.depth-1
	case *ast.List:
		m.list(t)
	case *east.Table:
		m.table(t)
	default:
		m.children(n)
	}
}

func (m *mdBuilder) children(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		m.block(c)
	}
}

// list adds each item, indented, its first block marked with a bullet or
// its number.
func (m *mdBuilder) list(l *ast.List) {
	m.depth++
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		m.marker = "•"
		if l.IsOrdered() {
			m.marker = fmt.Sprintf("%d.", l.Start+i)
		}
		before := len(m.blocks)
		m.children(item)
		if len(m.blocks) == before { // an empty item still shows its marker
			m.add(mdBlock{kind: mdParagraph})
		}
		i++
	}
	m.marker = ""
	m.depth--
}

// table adds a row a block, its cells apart by a bar, the header bold.
func (m *mdBuilder) table(t *east.Table) {
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var style mdStyle
		if _, ok := row.(*east.TableHeader); ok {
			style = styleBold
		}
		var runs []mdRun
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			if cell != row.FirstChild() {
				runs = append(runs, mdRun{text: "  │  "})
			}
			runs = append(runs, m.inlines(cell, style, "")...)
		}
		m.add(mdBlock{kind: mdParagraph, runs: runs})
	}
}

// lines is a code or HTML block's text as written, without its last
// newline, as a text body is shown (tabs to their stops).
func (m *mdBuilder) lines(n ast.Node) string {
	var b strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		b.Write(seg.Value(m.src))
	}
	text, _ := displayText(strings.TrimSuffix(b.String(), "\n"))
	return text
}

// inlines are the runs of n's inline children, in style, inside link.
func (m *mdBuilder) inlines(n ast.Node, style mdStyle, link string) []mdRun {
	var out []mdRun
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = m.inline(out, c, style, link)
	}
	return out
}

// inline appends the runs of one inline node.
func (m *mdBuilder) inline(out []mdRun, n ast.Node, style mdStyle, link string) []mdRun {
	if link != "" {
		style |= styleLink
	}
	if runs, ok := m.leaf(n, style, link); ok {
		return append(out, runs...)
	}
	switch t := n.(type) {
	case *ast.Emphasis:
		s := styleItalic
		if t.Level >= 2 {
			s = styleBold
		}
		style |= s
	case *east.Strikethrough:
		style |= styleStrike
	case *ast.Link:
		link = string(t.Destination)
	}
	return append(out, m.inlines(n, style, link)...)
}

// leaf is the runs of an inline node that holds no other (text, code,
// a bare link, an image, a task's box), and whether n is one.
func (m *mdBuilder) leaf(n ast.Node, style mdStyle, link string) ([]mdRun, bool) {
	switch t := n.(type) {
	case *ast.Text:
		out := []mdRun{{text: string(t.Value(m.src)), style: style, link: link}}
		switch {
		case t.HardLineBreak():
			out = append(out, mdRun{text: "\n", style: style, link: link})
		case t.SoftLineBreak():
			out = append(out, mdRun{text: " ", style: style, link: link})
		}
		return out, true
	case *ast.String:
		return []mdRun{{text: string(t.Value), style: style, link: link}}, true
	case *ast.CodeSpan:
		return []mdRun{{text: m.plain(n), style: style | styleCode, link: link}}, true
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < t.Segments.Len(); i++ {
			seg := t.Segments.At(i)
			b.Write(seg.Value(m.src))
		}
		return []mdRun{{text: b.String(), style: style | styleCode, link: link}}, true
	case *ast.AutoLink:
		return []mdRun{{text: string(t.Label(m.src)), style: style | styleLink, link: string(t.URL(m.src))}}, true
	case *ast.Image:
		return []mdRun{{text: "[image: " + m.plain(n) + "]", style: style | styleItalic | styleLink, link: string(t.Destination)}}, true
	case *east.TaskCheckBox:
		box := "☐ "
		if t.IsChecked {
			box = "☑ "
		}
		return []mdRun{{text: box, style: style, link: link}}, true
	}
	return nil, false
}

// plain is the text of n's Text and String descendants, as written: a
// code span's code, an image's alt text.
func (m *mdBuilder) plain(n ast.Node) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Value(m.src))
				if t.SoftLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
