package pack

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore/lab"
)

// demoSections are the demo corpus's memories of one tenant as the
// context holds them: one section each, with the body the server sends
// (threengram's MemoryBody, compact JSON).
func demoSections(t testing.TB, tenant string) []Section {
	t.Helper()
	var corpus []struct {
		ID, Tenant, Content, Topic, MemoryType, Scope, Project, RecordedAt string
	}
	if err := json.Unmarshal(assets.Corpus, &corpus); err != nil {
		t.Fatal(err)
	}
	var out []Section
	for _, m := range corpus {
		if m.Tenant != tenant {
			continue
		}
		body, _ := json.Marshal(map[string]any{"content": m.Content, "contentLength": utf8.RuneCountInString(m.Content),
			"memoryType": m.MemoryType, "topic": m.Topic, "scope": m.Scope, "project": m.Project, "recordedAt": m.RecordedAt})
		uri := "threengram://memory/" + m.ID
		out = append(out, Section{Server: "demo", Account: tenant, URI: uri, MIMEType: "application/json",
			Parts: []Part{{Kind: PartText, URI: uri, MIMEType: "application/json", Text: string(body)}}})
	}
	return out
}

// asEscapedJSON is how a section read before the renderer: the body as
// the server sent it, fenced.
func asEscapedJSON(s Section) string {
	var b strings.Builder
	write(&b, "## ", s.URI, "\n\n")
	writeField(&b, "server", s.Server)
	writeField(&b, "account", s.Account)
	writeField(&b, "mimeType", s.MIMEType)
	for _, p := range s.Parts {
		write(&b, "\n```\n", p.Text, "\n```\n")
	}
	return b.String()
}

// contextTokens counts a document of sections, each rendered by render.
func contextTokens(secs []Section, render func(Section) string) int {
	md := make([]string, len(secs))
	for i, s := range secs {
		md[i] = render(s)
	}
	return DefaultTokenCounter().Count(strings.Join(md, "\n"))
}

// The renderer's point, measured on the demo corpus (every memory of
// acme): the median memory costs at least 30% fewer tokens as the model
// reads it now than as escaped JSON in a fence. The total is logged
// beside it: the corpus's ten long memories (10 KB of Markdown each) are
// nearly all content, where the JSON cost little, so they pull it down.
func TestReadableContextTokens(t *testing.T) {
	secs := demoSections(t, "acme")
	before, after := contextTokens(secs, asEscapedJSON), contextTokens(secs, Section.Markdown)
	saved := make([]float64, len(secs))
	for i, s := range secs {
		b, a := contextTokens(secs[i:i+1], asEscapedJSON), contextTokens([]Section{s}, Section.Markdown)
		saved[i] = float64(b-a) / float64(b)
	}
	slices.Sort(saved)
	median := saved[len(saved)/2]
	t.Logf("%d memories: %d tokens as escaped JSON, %d rendered (%.1f%% fewer in all); the median memory %.1f%% fewer, the least %.1f%%, the most %.1f%%",
		len(secs), before, after, 100*float64(before-after)/float64(before), 100*median, 100*saved[0], 100*saved[len(saved)-1])
	if median < 0.30 {
		t.Errorf("the median memory costs %.1f%% fewer tokens rendered, want at least 30%%", 100*median)
	}
}

// The demo's sample conversation: the lab's bundled replay, 249 turns over
// the demo corpus in 30 sessions, each turn with the memories a person had
// attached. Every turn's context is counted as the model receives it, once
// as escaped JSON in a fence (before the renderer) and once rendered. Every
// turn costs fewer tokens rendered; the figure over the conversation is
// logged, not held to the 30%: its turns attach the corpus's 10 KB
// prose memories often, which are nearly all content, and the renderer
// keeps content as it is (the README gives both figures).
func TestSampleConversationTokens(t *testing.T) {
	turns, err := lab.Parse(bytes.NewReader(assets.Replay))
	if err != nil {
		t.Fatal(err)
	}
	byURI := map[string]Section{}
	for _, s := range demoSections(t, "acme") {
		byURI[s.URI] = s
	}
	var before, after, sent int
	for _, turn := range turns {
		var secs []Section
		for _, uri := range turn.Attached {
			s, ok := byURI[uri]
			if !ok {
				t.Fatalf("session %s turn %d attaches %s, which is not an acme memory of the corpus", turn.Session, turn.Turn, uri)
			}
			secs = append(secs, s)
		}
		if len(secs) == 0 {
			continue
		}
		sent += len(secs)
		b, a := contextTokens(secs, asEscapedJSON), contextTokens(secs, Section.Markdown)
		if a >= b {
			t.Errorf("session %s turn %d: %d tokens rendered, not fewer than %d as escaped JSON", turn.Session, turn.Turn, a, b)
		}
		before += b
		after += a
	}
	if sent == 0 {
		t.Fatal("the bundled replay attaches nothing: nothing was measured")
	}
	saved := float64(before-after) / float64(before)
	t.Logf("%d turns, %d memories sent: %d tokens as escaped JSON, %d rendered (%.1f%% fewer)", len(turns), sent, before, after, 100*saved)
}
