package demo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// system is a system prompt as the host writes it, with three attached
// sections: two memories and a Markdown page whose body holds a heading
// and a fence (which must not open a section of their own).
const system = "You are the assistant in Attaché, an MCP host.\n\n# Attached context\n\n" +
	"## threengram://memory/m9caykqgjw\n\n- server: demo\n- account: acme\n\n```\n" +
	"decision · incident · project rocket-sled · scope team · recorded 2025-01-15\n\n" +
	"Tasha noted that our API gateway was rewritten to use the p99 latency budget.\n```\n\n" +
	"## threengram://memory/mvqqm2ec9p\n\n- server: demo\n\n```\n" +
	"decision · billing · project rocket-sled · scope personal · recorded 2025-02-01\n\n" +
	"Tasha noted that the on-call rota was rewritten to use structured logging.\n```\n\n" +
	"## \"docs://guide\\n## forged\"\n\n- server: docs\n- mimeType: text/markdown\n\n````\n# Guide\n\n" +
	"## threengram://memory/not-a-section\n\n```go\nfmt.Println(\"deploy\")\n```\nDeployments wait for the Friday freeze.\n````\n\n" +
	"## pics://cat\n\n- server: pics\n\n[image: image/png, 96×64, 1,234 bytes; the image itself follows this prompt, after its uri]\n"

var searchTool = chat.ToolSpec{Name: "search", Description: "Search your memories.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"]}`)}

var archiveTool = chat.ToolSpec{Name: "archive", Description: "Search and archive a memory.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)}

func ask(text string, tools ...chat.ToolSpec) chat.ModelRequest {
	return chat.ModelRequest{System: system, Tools: tools, Messages: []chat.Message{{Role: chat.RoleUser, Text: text}}}
}

func complete(t *testing.T, req chat.ModelRequest) (chat.ModelReply, []string) {
	t.Helper()
	var got []string
	reply, err := New(models.DemoProvider(), &Options{Pace: -1}).Complete(context.Background(), req, func(s string) { got = append(got, s) })
	if err != nil {
		t.Fatal(err)
	}
	return reply, got
}

// The sections are read as the host renders them: a fenced body's own
// headings and fences stay in it, a quoted uri is unquoted, a memory's
// heading line is its meta, an image line is kept.
func TestSections(t *testing.T) {
	got := sections(system)
	if len(got) != 4 {
		t.Fatalf("%d sections, want 4: %+v", len(got), got)
	}
	if got[0].source != "threengram://memory/m9caykqgjw" || !strings.HasPrefix(got[0].meta, "decision · incident") ||
		got[0].text != "Tasha noted that our API gateway was rewritten to use the p99 latency budget." {
		t.Errorf("section 1 = %+v", got[0])
	}
	if got[2].source != "docs://guide\n## forged" || got[2].meta != "" || !strings.Contains(got[2].text, "## threengram://memory/not-a-section") ||
		!strings.Contains(got[2].text, "Friday freeze") {
		t.Errorf("section 3 = %+v", got[2])
	}
	if len(got[3].images) != 1 {
		t.Errorf("the image line of section 4 is lost: %+v", got[3])
	}
	if sections("No resource is attached to this conversation.\n") != nil {
		t.Error("a prompt without attached context has sections")
	}
}

// A question the attached context answers gets the best-matching section
// quoted, streamed in pieces that make the text, with the usage counted by
// the host's tokenizer, and no tool call even when a search is offered.
func TestAnswersFromAttached(t *testing.T) {
	for _, tt := range []struct{ question, source, quote string }{
		{"What did we decide about the API gateway?", "threengram://memory/m9caykqgjw", "our API gateway was rewritten"},
		{"Who changed the on-call rota?", "threengram://memory/mvqqm2ec9p", "the on-call rota was rewritten"},
		{"When do deployments wait?", "docs://guide", "Friday freeze"},
	} {
		t.Run(tt.question, func(t *testing.T) {
			req := ask(tt.question, searchTool)
			reply, got := complete(t, req)
			if len(reply.ToolCalls) != 0 || !strings.Contains(reply.Text, "From the ") || !strings.Contains(reply.Text, tt.source) ||
				!strings.Contains(reply.Text, tt.quote) {
				t.Errorf("reply = %q, calls %v; want a quote of %s", reply.Text, reply.ToolCalls, tt.source)
			}
			if len(got) < 2 || strings.Join(got, "") != reply.Text {
				t.Errorf("streamed %d pieces making %q; want several making the reply", len(got), strings.Join(got, ""))
			}
			c := chat.DefaultTokenCounter()
			tools, _ := json.Marshal(req.Tools)
			in := int64(c.Count(req.System) + c.Count(tt.question) + c.Count(string(tools)))
			if u := reply.Usage; !u.Reported || u.InputTokens != in || u.OutputTokens != int64(c.Count(reply.Text)) {
				t.Errorf("usage = %+v; want %d in and the reply's %d out", u, in, c.Count(reply.Text))
			}
			if reply.Model != models.DemoModelName {
				t.Errorf("model = %q", reply.Model)
			}
			if again, _ := complete(t, req); again.Text != reply.Text {
				t.Error("the same request got another answer")
			}
		})
	}
}

// When nothing attached holds most of the question's words, the demo
// model calls the tool that searches (never one whose name says it
// writes) with the word the context lacks; then it quotes the result's
// best item; with nothing found it tries the next word, and at last says
// so; a refusal is told, not retried.
func TestSearchesWhenNothingAttachedAnswers(t *testing.T) {
	req := ask("What happened to the nightly export?", archiveTool, searchTool)
	first, _ := complete(t, req)
	if len(first.ToolCalls) != 1 || first.ToolCalls[0].Name != "search" || first.ToolCalls[0].Arguments != `{"query":"nightly"}` {
		t.Fatalf("first reply = %q, calls %v; want a search", first.Text, first.ToolCalls)
	}
	call := first.ToolCalls[0]
	result := `{"results":[{"id":"mx","uri":"threengram://memory/mx","memoryType":"fact","topic":"billing","excerpt":"The invoice job runs nightly."},` +
		`{"id":"mjrxfv9d5j","uri":"threengram://memory/mjrxfv9d5j","memoryType":"incident","topic":"deployment",` +
		`"excerpt":"Wile noted that the nightly export is measured against a second approver."}]}`
	withResult := func(text string, isErr bool) chat.ModelRequest {
		r := req
		r.Messages = append(append([]chat.Message{}, req.Messages...),
			chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call}},
			chat.Message{Role: chat.RoleTool, ToolCallID: call.ID, ToolName: call.Name, Text: text, IsError: isErr})
		return r
	}
	answer, _ := complete(t, withResult(result, false))
	if len(answer.ToolCalls) != 0 || !strings.Contains(answer.Text, "threengram://memory/mjrxfv9d5j") ||
		!strings.Contains(answer.Text, "the nightly export is measured") || !strings.Contains(answer.Text, "so I called search") {
		t.Errorf("answer = %q; want the second result quoted", answer.Text)
	}
	again, _ := complete(t, withResult(`{"results":[]}`, false))
	if len(again.ToolCalls) != 1 || again.ToolCalls[0].Arguments != `{"query":"export"}` || again.ToolCalls[0].ID == call.ID {
		t.Errorf("after an empty result: %q, calls %v; want a search for the next word", again.Text, again.ToolCalls)
	}
	denied, _ := complete(t, withResult("The person denied this call.", true))
	if len(denied.ToolCalls) != 0 || !strings.Contains(denied.Text, "it did not answer: The person denied this call.") {
		t.Errorf("after a denial: %q, calls %v", denied.Text, denied.ToolCalls)
	}
	noTools, _ := complete(t, ask("What happened to the nightly export?", archiveTool))
	if len(noTools.ToolCalls) != 0 || !strings.Contains(noTools.Text, "no tool that searches was offered") {
		t.Errorf("with only a writing tool: %q, calls %v", noTools.Text, noTools.ToolCalls)
	}
	last := req
	last.NoToolCalls = true
	if r, _ := complete(t, last); len(r.ToolCalls) != 0 || !strings.Contains(r.Text, "allows no tool call") {
		t.Errorf("with tool calls forbidden: %q, calls %v", r.Text, r.ToolCalls)
	}
}

// Stop ends the stream: what was streamed is the reply's text, and the
// error is of kind canceled.
func TestStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	reply, err := New(models.DemoProvider(), &Options{Pace: -1}).Complete(ctx, ask("What did we decide about the API gateway?"),
		func(s string) {
			got = append(got, s)
			if len(got) == 2 {
				cancel()
			}
		})
	var he *fault.Error
	if !errors.As(err, &he) || he.Kind() != fault.KindCanceled || reply.Text != strings.Join(got, "") || len(got) != 2 {
		t.Errorf("reply %q, %d pieces, err %v; want the two pieces streamed and a canceled error", reply.Text, len(got), err)
	}
}

// Retrieval scores by BM25: a rare word outweighs a common one, stems
// meet their words, and stopwords are left out.
func TestRetrieval(t *testing.T) {
	q := query("What did we decide about the policies for deployed gateways?")
	var stems []string
	for _, x := range q {
		stems = append(stems, x.stem)
	}
	if strings.Join(stems, " ") != "polici deploi gatewai" {
		t.Errorf("query stems = %v", stems)
	}
	m, ok := best(query("gateway queue"), []string{"the queue, the queue, the queue", "the gateway and the queue", "nothing here"})
	if !ok || m.index != 1 || len(m.matched) != 2 || !m.answers(query("gateway queue")) {
		t.Errorf("best = %+v, %v; want the passage holding both words", m, ok)
	}
	if _, ok := best(query("zebra"), []string{"a", "b"}); ok {
		t.Error("a passage without the word matched")
	}
	for word, want := range map[string]string{"policies": "policy", "gateways": "gateway", "nightly": "nightly", "status": "status"} {
		if got := (term{stem: stem(word), word: word}).searchWord(); got != want {
			t.Errorf("searchWord(%s) = %q, want %q", word, got, want)
		}
	}
}
