package labrun_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
)

func TestLabTurns(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.FixedZone("x", 3600))
	sent := chat.SentItem{Server: "demo", Account: "globex", URI: "threengram://memory/a", Verdict: pack.VerdictIncluded}
	held := chat.SentItem{URI: "x://logo", Verdict: pack.VerdictHeldAudience}
	turns := []chat.Turn{
		{Seq: 1, StartedAt: at, Context: chat.SentContext{Items: []chat.SentItem{sent, held}},
			Tools:    []chat.OfferedTool{{Name: "demo__get_memories", Server: "demo", Account: "acme", Tool: "get_memories"}},
			Relevant: []string{"threengram://memory/a"},
			Messages: []chat.Message{{Role: chat.RoleUser, Text: "hi"},
				{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
					{ID: "1", Name: "demo__get_memories", Arguments: `{"ids":["a"]}`},
					{ID: "2", Name: "made_up", Arguments: `not json`}}}}},
		{Seq: 2, StartedAt: at.Add(time.Minute), Relevant: []string{"threengram://memory/a"},
			Messages: []chat.Message{{Role: chat.RoleUser, Text: "again"}}},
		{Seq: 3, StartedAt: at}, // the person said nothing: left out
	}
	got := labrun.FromTurns("conv-1", turns, map[int][]string{2: {"threengram://memory/b"}})
	want := []lab.Turn{
		{Session: "conv-1", Turn: 1, At: at.UTC(), User: "hi", Relevant: []string{"threengram://memory/a"},
			Attached: []string{"threengram://memory/a"}, Origins: []lab.Origin{{Server: "demo", Account: "globex"}},
			ToolCalls: []lab.ToolCall{
				{Name: "get_memories", Arguments: []byte(`{"ids":["a"]}`), Origin: lab.Origin{Server: "demo", Account: "acme"}},
				{Name: "made_up", Arguments: []byte(`{}`)}}},
		{Session: "conv-1", Turn: 2, At: at.Add(time.Minute).UTC(), User: "again", Relevant: []string{"threengram://memory/b"},
			Attached: []string{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := labrun.ParseRelevance([]byte(`{"0": []}`)); err == nil {
		t.Error("turn 0 was accepted")
	}
	if r, err := labrun.ParseRelevance([]byte(`{"3": ["x://a"]}`)); err != nil || r[3][0] != "x://a" {
		t.Errorf("ParseRelevance: %v %v", r, err)
	}
}
