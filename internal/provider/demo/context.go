package demo

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// What the demo model reads is what any model reads: the request. The
// attached context is the system prompt's "# Attached context" part, one
// "## URI" section per resource (the host's own Markdown, see
// pack.Section.Markdown), whose bodies are fenced; a tool's result is the
// text of a tool message, usually JSON.

// contextHeading opens the attached context in the host's system prompt.
const contextHeading = "\n# Attached context\n"

// passage is a text the demo model may quote: an attached section, or an
// item of a tool's result.
type passage struct {
	// source names where it is from: a uri, or an id.
	source string
	// meta is a memory's heading line ("decision · incident · project
	// rocket-sled · ..."), or the type and topic of a result's item.
	meta string
	// text is the body.
	text string
	// images are the lines that stand for its images ("[image: ...]").
	images []string
}

// scored is what retrieval reads of a passage: its meta and its text.
func (p passage) scored() string { return p.meta + "\n" + p.text }

// sections reads the attached sections of a system prompt, in order.
func sections(system string) []passage {
	i := strings.Index(system, contextHeading)
	if i < 0 {
		return nil
	}
	var out []passage
	var body []string
	fence := ""
	flush := func() {
		if len(out) > 0 {
			p := &out[len(out)-1]
			p.meta, p.text = splitMemory(strings.TrimSpace(strings.Join(body, "\n")))
		}
		body = nil
	}
	for _, line := range strings.Split(system[i+len(contextHeading):], "\n") {
		switch {
		case fence != "" && line == fence:
			fence = ""
			body = append(body, "")
		case fence != "":
			body = append(body, line)
		case len(line) >= 3 && strings.Trim(line, "`") == "":
			fence = line
		case strings.HasPrefix(line, "## "):
			flush()
			out = append(out, passage{source: unquote(strings.TrimPrefix(line, "## "))})
		case strings.HasPrefix(line, "[image: ") && len(out) > 0:
			out[len(out)-1].images = append(out[len(out)-1].images, line)
		}
	}
	flush()
	return out
}

// splitMemory splits a threengram memory's rendering (a heading line of
// fields joined by " · ", a blank line, the content) into its heading and
// content; another body has no heading.
func splitMemory(body string) (meta, text string) {
	head, rest, ok := strings.Cut(body, "\n\n")
	if ok && strings.Contains(head, " · ") && !strings.Contains(head, "\n") {
		return head, strings.TrimSpace(rest)
	}
	return "", body
}

// unquote undoes pack.OneLine's quoting of a header value.
func unquote(v string) string {
	if s, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return s
	}
	return v
}

// textKeys are the fields of a tool result's item that hold its text, in
// the order preferred; sourceKeys name it; metaKeys describe it.
var (
	textKeys   = []string{"content", "excerpt", "text", "body", "snippet", "summary", "description"}
	sourceKeys = []string{"uri", "id", "name", "title"}
	metaKeys   = []string{"memoryType", "topic", "project", "status", "type"}
)

// resultPassages reads a tool's result: the items of a JSON result that
// hold text (threengram's search results, get_memories' memories), else
// the paragraphs of a text.
func resultPassages(text string) []passage {
	var v any
	if json.Unmarshal([]byte(text), &v) == nil {
		var out []passage
		collect(v, &out)
		if len(out) > 0 {
			return out
		}
	}
	var out []passage
	for _, para := range strings.Split(text, "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			out = append(out, passage{text: para})
		}
	}
	return out
}

// collect appends the JSON items under v that hold text, depth first.
func collect(v any, out *[]passage) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			collect(e, out)
		}
	case map[string]any:
		if p, ok := itemPassage(v); ok {
			*out = append(*out, p)
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // a map's order is random; the answer is not
		for _, k := range keys {
			collect(v[k], out)
		}
	}
}

// itemPassage reads one JSON object as a passage, if it holds text.
func itemPassage(obj map[string]any) (passage, bool) {
	str := func(k string) string { s, _ := obj[k].(string); return s }
	var p passage
	for _, k := range textKeys {
		if s := str(k); strings.TrimSpace(s) != "" {
			p.text = s
			break
		}
	}
	if p.text == "" {
		return passage{}, false
	}
	for _, k := range sourceKeys {
		if s := str(k); s != "" {
			p.source = s
			break
		}
	}
	var meta []string
	for _, k := range metaKeys {
		if s := str(k); s != "" {
			meta = append(meta, s)
		}
	}
	p.meta = strings.Join(meta, " · ")
	return p, true
}
