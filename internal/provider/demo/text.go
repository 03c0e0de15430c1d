package demo

import (
	"fmt"
	"strings"

	"github.com/attache/attache/hostcore/chat"
)

// maxQuote bounds a quote, in characters: a longer body is quoted by its
// paragraph that best matches, cut there.
const maxQuote = 600

// quote is an answer that quotes p, which m matched; how says how it was
// chosen ("the best match of the 3 attached sections").
func (t turn) quote(p passage, m match, how string) string {
	var b strings.Builder
	what := "the attached resource"
	if p.meta != "" {
		what = "the memory"
	}
	if p.source != "" {
		what += " " + chat.OneLine(p.source)
	}
	if p.meta != "" {
		what += " (" + p.meta + ")"
	}
	fmt.Fprintf(&b, "From %s:\n\n“%s”\n\n", what, excerpt(p.text, t.question))
	fmt.Fprintf(&b, "It holds %d of the %s I looked for (%s), %s.", len(m.matched), count(len(t.question), "word"),
		words(m.matched), how)
	if len(p.images) > 0 {
		fmt.Fprintf(&b, " It has %s, sent as images; the demo model cannot see images.", count(len(p.images), "image"))
	}
	b.WriteString("\n\n" + signature)
	return b.String()
}

// excerpt is text, or its paragraph that holds most of q's terms, cut at
// maxQuote characters.
func excerpt(text string, q []term) string {
	text = strings.TrimSpace(text)
	if len([]rune(text)) > maxQuote {
		bestPara, bestN := text, -1
		for _, para := range strings.Split(text, "\n\n") {
			n := 0
			for _, w := range terms(para) {
				for _, x := range q {
					if w.stem == x.stem {
						n++
					}
				}
			}
			if n > bestN {
				bestPara, bestN = strings.TrimSpace(para), n
			}
		}
		text = bestPara
	}
	if r := []rune(text); len(r) > maxQuote {
		text = strings.TrimSpace(string(r[:maxQuote])) + "…"
	}
	return text
}

// nothingAsked answers a message with no word to look up ("hi").
func (t turn) nothingAsked() string {
	if len(t.sections) == 0 {
		return "Hello. Nothing is attached to this conversation yet: attach a memory (or any resource), then ask " +
			"about it.\n\n" + signature
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello. Ask me about what is attached: the %s here are", sectionCount(len(t.sections)))
	for i, s := range t.sections {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s", sep, chat.OneLine(s.source))
		if s.meta != "" {
			fmt.Fprintf(&b, " (%s)", s.meta)
		}
	}
	b.WriteString(".\n\n" + signature)
	return b.String()
}

// unanswered says that nothing attached answers and no search can be
// made; m is the best partial match, if ok.
func (t turn) unanswered(m match, ok bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Nothing attached answers this: ")
	switch {
	case len(t.sections) == 0:
		b.WriteString("no resource is attached to this conversation")
	case ok:
		fmt.Fprintf(&b, "the closest of the %s, %s, holds only %s of the %s I looked for (%s)",
			sectionCount(len(t.sections)), chat.OneLine(t.sections[m.index].source), words(m.matched), count(len(t.question), "word"),
			words(t.question))
	default:
		fmt.Fprintf(&b, "none of the %s holds %s", sectionCount(len(t.sections)), words(t.question))
	}
	switch {
	case t.req.NoToolCalls:
		b.WriteString("; and this request allows no tool call.")
	case len(t.calls) >= maxSearches:
		b.WriteString(".")
	default:
		b.WriteString("; and no tool that searches was offered (switch a server's tools on to let me search).")
	}
	switch n := t.images(); {
	case n == 1:
		b.WriteString(" 1 image is attached, and sent as an image; the demo model cannot see images.")
	case n > 1:
		fmt.Fprintf(&b, " %d images are attached, and sent as images; the demo model cannot see images.", n)
	}
	b.WriteString("\n\n" + signature)
	return b.String()
}

// images counts the attached images.
func (t turn) images() int {
	n := 0
	for _, s := range t.sections {
		n += len(s.images)
	}
	return n
}
