package state

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

func sampleTurn(conv int64) chat.Turn {
	return chat.Turn{
		ConversationID: conv, Provider: "local", Model: "m1", Status: chat.TurnRunning,
		Context: chat.SentContext{System: "sys", Budget: 100, Used: 40, Items: []chat.SentItem{
			{Rank: 1, AttachmentID: 7, Server: "demo", URI: "threengram://memory/a", Verdict: pack.VerdictIncluded,
				Priority: 1, Tokens: 40, Reason: "included: 40 tokens", Cache: hostcore.CacheHit, Digest: "abc"},
			{Rank: 2, AttachmentID: 8, Server: "demo", URI: "x://logo", Verdict: pack.VerdictHeldAudience, Reason: "held back"},
		}},
		Tools: []chat.OfferedTool{{Name: "get_memories", Server: "demo", Tool: "get_memories",
			InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ListingTokens: 12,
		Messages:      []chat.Message{{Role: chat.RoleUser, Text: "hello"}},
	}
}

// A turn is stored as it happens: started with the person's message and
// the context, then each request and message appended, then finished. Read
// back, it is the same turn, and a second turn gets the next Seq.
func TestTurnLifecycle(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "chat")
	started, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	if started.ID == 0 || started.Seq != 1 {
		t.Fatalf("StartTurn = id %d seq %d; want an id and seq 1", started.ID, started.Seq)
	}
	call := chat.ToolCall{ID: "call_1", Name: "get_memories", Arguments: `{"ids":["a"]}`}
	msgs := []chat.Message{
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call}},
		{Role: chat.RoleTool, ToolCallID: "call_1", ToolName: "get_memories", Text: "result"},
		{Role: chat.RoleAssistant, Text: "done"},
	}
	reqs := []chat.RequestRecord{
		{Round: 1, Counted: chat.RequestTokens{System: 1, Messages: 2, Tools: 12, Total: 15},
			Usage: chat.Usage{InputTokens: 20, OutputTokens: 5, Reported: true}, StopReason: "tool_calls"},
		{Round: 2, Usage: chat.Usage{InputTokens: 30, OutputTokens: 3, Reported: true}, StopReason: "stop"},
	}
	if err := s.AddRequest(ctx, started.ID, reqs[0]); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs[:2] {
		if err := s.AddMessage(ctx, started.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddRequest(ctx, started.ID, reqs[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.AddMessage(ctx, started.ID, msgs[2]); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTurn(ctx, started.ID, chat.TurnDone, "", "", at); err != nil {
		t.Fatal(err)
	}
	second, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil || second.Seq != 2 {
		t.Fatalf("second StartTurn = seq %d, %v; want seq 2", second.Seq, err)
	}

	turns, err := s.Turns(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := started
	want.Status, want.FinishedAt = chat.TurnDone, at
	want.Messages = append(want.Messages, msgs...)
	want.Requests = reqs
	if len(turns) != 2 {
		t.Fatalf("%d turns; want 2", len(turns))
	}
	if diff := cmp.Diff(want, turns[0]); diff != "" {
		t.Errorf("turn 1 read back differs (-want +got):\n%s", diff)
	}
	if turns[1].Status != chat.TurnRunning || len(turns[1].Messages) != 1 {
		t.Errorf("turn 2 = %+v; want running with the person's message", turns[1])
	}
}

// A turn survives the process: what was acknowledged is there after the
// file is reopened.
func TestTurnDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, ctx := openTest(t, path), context.Background()
	c := newConversation(t, s, "chat")
	tr, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddMessage(ctx, tr.ID, chat.Message{Role: chat.RoleAssistant, Text: "partial"}); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTurn(ctx, tr.ID, chat.TurnStopped, fault.KindCanceled, "stopped", time.Now()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := openTest(t, path)
	turns, err := s2.Turns(ctx, c.ID)
	if err != nil || len(turns) != 1 {
		t.Fatalf("Turns after reopening = %d, %v", len(turns), err)
	}
	if got := turns[0]; got.Status != chat.TurnStopped || got.ErrorKind != fault.KindCanceled || got.Messages[1].Text != "partial" {
		t.Errorf("turn after reopening = %+v", got)
	}
}

func TestTurnRefusals(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	if _, err := s.StartTurn(ctx, sampleTurn(999)); !errors.Is(err, ErrNotFound) || !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("StartTurn in a missing conversation: %v; want ErrNotFound", err)
	}
	if err := s.AddMessage(ctx, 999, chat.Message{Role: chat.RoleUser}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddMessage to a missing turn: %v; want ErrNotFound", err)
	}
	c := newConversation(t, s, "chat")
	tr, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddMessage(ctx, tr.ID, chat.Message{Role: "system"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("AddMessage of role system: %v; want ErrInvalid", err)
	}
	// A removed conversation hides its turns; restoring brings them back.
	if err := s.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if turns, err := s.Turns(ctx, c.ID); err != nil || len(turns) != 0 {
		t.Errorf("Turns of a removed conversation = %d, %v; want none", len(turns), err)
	}
	if err := s.RestoreConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if turns, err := s.Turns(ctx, c.ID); err != nil || len(turns) != 1 {
		t.Errorf("Turns after restoring = %d, %v; want 1", len(turns), err)
	}
}

func TestToolSettings(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "chat")
	for _, step := range []func() error{
		func() error { return s.SetServerTools(ctx, c.ID, "demo", false) },
		func() error { return s.SetServerTools(ctx, c.ID, "kg", true) },
		func() error { return s.SetServerTools(ctx, c.ID, "demo", true) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ToolSettings(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := chat.ToolSettings{Servers: map[string]bool{"demo": true, "kg": true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolSettings (-want +got):\n%s", diff)
	}
	if err := s.SetServerTools(ctx, c.ID, "", true); !errors.Is(err, ErrInvalid) {
		t.Errorf("an empty server name: %v; want ErrInvalid", err)
	}
}
