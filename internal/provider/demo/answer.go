package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/attache/attache/hostcore/chat"
)

// maxSearches is how many calls of a fetch tool the demo model makes in a
// turn before it says that nothing was found.
const maxSearches = 3

// signature ends every answer: what the demo model is, and what it does.
const signature = "I am the demo model, offline and scripted: I quote the attached context that best matches your " +
	"words, and call a tool that searches when nothing attached does."

// reply is what the demo model decided to say, or to call.
type reply struct {
	text string
	call *chat.ToolCall
}

// turn is the request as the demo model reads it: the question (the last
// message of the person's), the attached sections, and what happened in
// this turn after the question (its own tool calls and their results).
type turn struct {
	req      chat.ModelRequest
	question []term
	sections []passage
	calls    []chat.ToolCall // its own calls since the question
	results  []chat.Message  // their results
}

func readTurn(req chat.ModelRequest) turn {
	t := turn{req: req, sections: sections(req.System)}
	u := -1
	for i, m := range req.Messages {
		if m.Role == chat.RoleUser {
			u = i
		}
	}
	if u < 0 {
		return t
	}
	t.question = query(req.Messages[u].Text)
	for _, m := range req.Messages[u+1:] {
		t.calls = append(t.calls, m.ToolCalls...)
		if m.Role == chat.RoleTool {
			t.results = append(t.results, m)
		}
	}
	return t
}

// respond decides the reply.
func respond(req chat.ModelRequest) reply {
	t := readTurn(req)
	if len(t.results) > 0 {
		return t.fromTool()
	}
	return t.fromContext()
}

// fromContext answers from the attached sections, or calls a tool that
// searches when none holds most of the question's words.
func (t turn) fromContext() reply {
	if len(t.question) == 0 {
		return reply{text: t.nothingAsked()}
	}
	m, ok := best(t.question, scoredTexts(t.sections))
	if ok && m.answers(t.question) {
		return reply{text: t.quote(t.sections[m.index], m, fmt.Sprintf("the best match of the %s", sectionCount(len(t.sections))))}
	}
	if call := t.search(m.matched); call != nil {
		return reply{call: call}
	}
	return reply{text: t.unanswered(m, ok)}
}

// fromTool answers from the last tool result: the item of it that best
// matches the question, or searches again with another word when it holds
// none.
func (t turn) fromTool() reply {
	res := t.results[len(t.results)-1]
	name, words := res.ToolName, ""
	if c := t.callOf(res.ToolCallID); c != nil {
		name, words = c.Name, c.Arguments
	}
	if res.IsError {
		return reply{text: fmt.Sprintf("I asked to call %s with %s, and it did not answer: %s\n\n%s", name, words,
			firstLine(res.Text), signature)}
	}
	items := resultPassages(res.Text)
	if m, ok := best(t.question, scoredTexts(items)); ok {
		how := fmt.Sprintf("the best match of the %s %s returned for %s", count(len(items), "item"), name, words)
		return reply{text: "Nothing attached answers this, so I called " + name + ".\n\n" + t.quote(items[m.index], m, how)}
	}
	if call := t.search(nil); call != nil {
		return reply{call: call}
	}
	return reply{text: fmt.Sprintf("Nothing attached answers this, and %s found nothing for %s.\n\n%s", name,
		t.triedWords(), signature)}
}

// callOf is the demo model's own call of id in this turn.
func (t turn) callOf(id string) *chat.ToolCall {
	for i := range t.calls {
		if t.calls[i].ID == id {
			return &t.calls[i]
		}
	}
	return nil
}

// search returns the next call of a fetch tool the request offers, with a
// word of the question not yet searched for (those the attached context
// lacks first, the longest first), or nil when there is none to make.
func (t turn) search(matched []term) *chat.ToolCall {
	if t.req.NoToolCalls || len(t.calls) >= maxSearches {
		return nil
	}
	tool, prop := fetchTool(t.req.Tools)
	if tool == "" {
		return nil
	}
	tried := t.tried()
	var next *term
	for _, c := range candidates(t.question, matched) {
		if !tried[c.searchWord()] {
			next = &c
			break
		}
	}
	if next == nil {
		return nil
	}
	args, _ := json.Marshal(map[string]string{prop: next.searchWord()})
	return &chat.ToolCall{ID: "demo_call_" + strconv.Itoa(len(t.calls)+1), Name: tool, Arguments: string(args)}
}

// candidates orders the question's terms for searching: those the
// attached context lacks, then the others, the longer first in each.
func candidates(q, matched []term) []term {
	lacks := func(x term) bool {
		return !slices.ContainsFunc(matched, func(m term) bool { return m.stem == x.stem })
	}
	out := slices.Clone(q)
	slices.SortStableFunc(out, func(a, b term) int {
		if la, lb := lacks(a), lacks(b); la != lb {
			if la {
				return -1
			}
			return 1
		}
		return len(b.word) - len(a.word)
	})
	return out
}

// tried is the words the demo model already searched for in this turn.
func (t turn) tried() map[string]bool {
	out := map[string]bool{}
	for _, c := range t.calls {
		var args map[string]any
		json.Unmarshal([]byte(c.Arguments), &args)
		for _, v := range args {
			if s, ok := v.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}

// triedWords lists them, quoted, in the order searched.
func (t turn) triedWords() string {
	var ws []string
	for _, c := range t.calls {
		ws = append(ws, c.Arguments)
	}
	return strings.Join(ws, ", then ")
}

// writeVerbs are the words of a tool's name that say it changes
// something: the demo model never calls such a tool.
var writeVerbs = []string{"remember", "revise", "archive", "create", "delete", "update", "write", "set", "add",
	"remove", "insert", "edit", "send", "post", "put", "patch", "toggle", "run", "exec", "move", "rename", "upload"}

// queryProps are the names of a string input that takes what to look for.
var queryProps = []string{"query", "q", "search", "text", "keywords", "keyword", "term", "terms", "question"}

// fetchTool picks the offered tool that searches (by its name, then its
// description) and needs nothing but a string of what to look for, and
// that property's name; "" when none does. A tool whose name says it
// writes is never picked; the consent gate decides on the call anyway.
func fetchTool(tools []chat.ToolSpec) (name, prop string) {
	bestScore := 0
	for _, tl := range tools {
		n := strings.ToLower(tl.Name)
		if slices.ContainsFunc(writeVerbs, func(v string) bool { return strings.Contains(n, v) }) {
			continue
		}
		p := queryProp(tl.InputSchema)
		if p == "" {
			continue
		}
		score := 0
		switch {
		case strings.Contains(n, "search"):
			score = 4
		case strings.Contains(n, "find"), strings.Contains(n, "lookup"), strings.Contains(n, "query"):
			score = 3
		case strings.Contains(n, "fetch"), strings.Contains(n, "get"), strings.Contains(n, "read"):
			score = 2
		case strings.Contains(strings.ToLower(tl.Description), "search"):
			score = 1
		}
		if score > bestScore {
			bestScore, name, prop = score, tl.Name, p
		}
	}
	return name, prop
}

// queryProp is the input of a schema that takes what to look for: a string
// property named as queryProps say, when no other property is required.
func queryProp(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return ""
	}
	for _, p := range queryProps {
		prop, ok := s.Properties[p]
		if !ok || prop.Type != "string" {
			continue
		}
		if slices.ContainsFunc(s.Required, func(r string) bool { return r != p }) {
			return ""
		}
		return p
	}
	return ""
}

func scoredTexts(ps []passage) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.scored()
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// count is "1 item", "3 items".
func count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func sectionCount(n int) string { return count(n, "attached section") }
