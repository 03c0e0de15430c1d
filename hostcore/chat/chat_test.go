package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/hosttest"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// chatFixture is a conversation over two real servers: threengram over
// loopback HTTP (a memory attached by id), and the annotated mcptest
// server (its readme is priority 1, its logo is for the user only).
type chatFixture struct {
	ch     *chat.Chat
	cv     *hostcore.Conversations
	conv   int64
	memory string // the attached memory's id
	other  string // another memory of the tenant, for get_memories
}

func newChatFixture(t *testing.T, opts *chat.Options) chatFixture {
	t.Helper()
	tg, _ := hosttest.ThreengramHTTP(t)
	annotated, err := mcptest.Handler(mcptest.ModeV2025Nov, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(annotated)
	t.Cleanup(srv.Close)
	ann := config.ServerConfig{Name: "annotated", URL: srv.URL + "/mcp"}
	st := hosttest.State(t)
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t), Grants: st}, tg, ann)
	cv := hostcore.NewConversations(h, st)
	ctx := context.Background()
	conv, _ := cv.Create(ctx, "chat")
	acme, _ := h.Conn(tg.Name, "acme")
	ids := hosttest.MemoryIDs(t, acme)
	if _, err := cv.AttachID(ctx, conv.ID, acme, ids[0]); err != nil {
		t.Fatal(err)
	}
	c, _ := h.Conn(ann.Name, "")
	for _, uri := range []string{mcptest.ReadmeURI, mcptest.LogoURI} {
		if _, err := cv.AttachURI(ctx, conv.ID, c, uri); err != nil {
			t.Fatal(err)
		}
	}
	return chatFixture{ch: chat.New(cv, st, opts), cv: cv, conv: conv.ID, memory: ids[0], other: ids[1]}
}

// The whole turn: the context goes in the system prompt (the priority-1
// readme and the memory in readable form, never the user-only logo), the
// servers' tools are offered, the model's get_memories call reaches
// threengram and its result goes back, and the turn is stored with every
// request counted on both sides.
func TestSendRunsTheWholeTurn(t *testing.T) {
	f := newChatFixture(t, nil)
	model := (&hosttest.ScriptModel{}).Then(hosttest.CallTool("get_memories", fmt.Sprintf(`{"ids":[%q]}`, f.other)), hosttest.Say("Here is what I found."))
	var events []chat.EventKind
	var streamed strings.Builder
	turn, err := f.ch.Send(context.Background(), f.conv, "What do I know?", chat.SendOptions{
		Model: model, Provider: "scripted", ModelName: "m", Tools: consent.ToolsAuto,
		OnEvent: func(e chat.Event) {
			events = append(events, e.Kind)
			if e.Kind == chat.EventText {
				streamed.WriteString(e.Text)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := model.Sent()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want 2", len(reqs))
	}
	sys := reqs[0].System
	for _, want := range []string{"## " + mcptest.ReadmeURI, "A *static* markdown resource", "## " + threengram.MemoryURI(f.memory), " · recorded "} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt lacks %q:\n%s", want, sys)
		}
	}
	if strings.Contains(sys, mcptest.LogoURI) || strings.Contains(sys, `"memoryType"`) {
		t.Errorf("the system prompt holds the user-only logo or escaped memory JSON:\n%s", sys)
	}
	var names []string
	for _, s := range reqs[0].Tools {
		names = append(names, s.Name)
	}
	for _, want := range []string{"get_memories", "search", "briefing", "touch"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools offered %v lack %s", names, want)
		}
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != chat.RoleTool || last.IsError || !strings.Contains(last.Text, f.other) || !strings.Contains(last.Text, `"content"`) {
		t.Errorf("the tool result sent back = %+v; want get_memories' answer for %s", last, f.other)
	}
	if turn.Status != chat.TurnDone || turn.Seq != 1 || streamed.String() != "Here is what I found." {
		t.Errorf("turn %d %s, streamed %q", turn.Seq, turn.Status, streamed.String())
	}
	wantEvents := []chat.EventKind{chat.EventStarted, chat.EventRequest, chat.EventReply,
		chat.EventToolCall, chat.EventToolResult, chat.EventRequest, chat.EventText, chat.EventText, chat.EventReply}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	stored, err := f.ch.Turns(context.Background(), f.conv)
	if err != nil || len(stored) != 1 {
		t.Fatalf("stored turns: %d, %v", len(stored), err)
	}
	if diff := cmp.Diff(turn, stored[0]); diff != "" {
		t.Errorf("the stored turn differs from the one returned (-returned +stored):\n%s", diff)
	}
	var roles []chat.Role
	for _, m := range stored[0].Messages {
		roles = append(roles, m.Role)
	}
	if diff := cmp.Diff([]chat.Role{"user", "assistant", "tool", "assistant"}, roles); diff != "" {
		t.Errorf("message roles (-want +got):\n%s", diff)
	}
	verdicts := map[string]pack.Verdict{}
	for _, it := range stored[0].Context.Items {
		verdicts[it.URI] = it.Verdict
		if it.Sent() && (it.Digest == "" || it.Cache == "") {
			t.Errorf("sent item %s has no digest or cache status: %+v", it.URI, it)
		}
	}
	want := map[string]pack.Verdict{mcptest.ReadmeURI: pack.VerdictIncluded, mcptest.LogoURI: pack.VerdictHeldAudience,
		threengram.MemoryURI(f.memory): pack.VerdictIncluded}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("verdicts stored (-want +got):\n%s", diff)
	}
	if stored[0].Context.System != sys || stored[0].ListingTokens == 0 {
		t.Errorf("stored system prompt differs from the one sent, or the listing cost is 0 (%d)", stored[0].ListingTokens)
	}
	for _, r := range stored[0].Requests {
		if r.Counted.Tools != stored[0].ListingTokens || r.Counted.Total <= r.Counted.Tools || !r.Usage.Reported {
			t.Errorf("request %d: counted %+v, usage %+v", r.Round, r.Counted, r.Usage)
		}
	}
	// The turn can be replayed: its first request rebuilt from the store
	// is the one sent.
	replay, err := chat.ReplayRequest(stored, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reqs[0], replay); diff != "" {
		t.Errorf("replayed request differs from the one sent (-sent +replayed):\n%s", diff)
	}
	// Replay sends that request to a model, and stores nothing.
	again := (&hosttest.ScriptModel{}).Then(hosttest.Say("Still the same."))
	reply, err := f.ch.Replay(context.Background(), f.conv, 1, again, nil)
	if err != nil || reply.Text != "Still the same." {
		t.Fatalf("Replay: %q, %v", reply.Text, err)
	}
	if diff := cmp.Diff([]chat.ModelRequest{reqs[0]}, again.Sent()); diff != "" {
		t.Errorf("Replay sent another request (-first sent +replayed):\n%s", diff)
	}
	if after, _ := f.ch.Turns(context.Background(), f.conv); len(after) != 1 {
		t.Errorf("Replay stored a turn: %d turns", len(after))
	}
	if _, err := f.ch.Replay(context.Background(), f.conv, 7, again, nil); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("Replay of a turn that does not exist: %v, want not found", err)
	}
}

// Ask: every call waits for the person; Always is remembered in the
// conversation and not asked again; Deny tells the model, and runs nothing.
func TestSendApprovals(t *testing.T) {
	f := newChatFixture(t, nil)
	ctx := context.Background()
	var asked []string
	answers := []consent.Approval{consent.ApproveAlways, consent.ApproveDeny}
	approve := func(_ context.Context, req consent.ToolRequest) (consent.Approval, error) {
		asked = append(asked, req.Server+"/"+req.Tool.Name+" "+string(req.Arguments))
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	args := fmt.Sprintf(`{"ids":[%q]}`, f.other)
	model := (&hosttest.ScriptModel{}).Then(hosttest.CallTool("get_memories", args), hosttest.Say("one"), hosttest.CallTool("get_memories", args),
		hosttest.CallTool("briefing", `{}`), hosttest.Say("two"))
	opts := chat.SendOptions{Model: model, Tools: consent.ToolsAsk, Approve: approve}
	if _, err := f.ch.Send(ctx, f.conv, "first", opts); err != nil {
		t.Fatal(err)
	}
	turn, err := f.ch.Send(ctx, f.conv, "second", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || !strings.HasPrefix(asked[0], "threengram-http/get_memories {") || !strings.HasPrefix(asked[1], "threengram-http/briefing") {
		t.Errorf("asked %q; want get_memories once (then Always), then briefing", asked)
	}
	grants, _ := f.cv.Host().Consent().Grants(ctx, f.conv)
	if len(grants) != 1 || grants[0].Server != "threengram-http" || grants[0].Tool != "get_memories" || grants[0].Account != "acme" {
		t.Errorf("Always was not stored: %+v", grants)
	}
	results := map[string]chat.Message{}
	for _, m := range turn.Messages {
		if m.Role == chat.RoleTool {
			results[m.ToolName] = m
		}
	}
	if r := results["get_memories"]; r.IsError || !strings.Contains(r.Text, f.other) {
		t.Errorf("the call approved for good: %+v", r)
	}
	if r := results["briefing"]; !r.IsError || !strings.Contains(r.Text, "denied") {
		t.Errorf("the denied call: %+v", r)
	}
}

// A call whose arguments are not a JSON object is never run nor asked
// about: the model is told, and the turn goes on to its answer.
func TestSendInvalidArguments(t *testing.T) {
	f := newChatFixture(t, nil)
	model := (&hosttest.ScriptModel{}).Then(hosttest.CallTool("get_memories", `{"ids": [`), hosttest.Say("sorry"))
	var warnings []string
	turn, err := f.ch.Send(context.Background(), f.conv, "x", chat.SendOptions{Model: model, Tools: consent.ToolsAsk,
		Approve: func(context.Context, consent.ToolRequest) (consent.Approval, error) {
			t.Error("asked to approve a call with invalid arguments")
			return consent.ApproveDeny, nil
		},
		OnEvent: func(e chat.Event) {
			if e.Kind == chat.EventWarning {
				warnings = append(warnings, e.Text)
			}
		}})
	if err != nil || turn.Status != chat.TurnDone {
		t.Fatalf("turn %s, %v; want done", turn.Status, err)
	}
	res := turn.Messages[2]
	if res.Role != chat.RoleTool || !res.IsError || !strings.Contains(res.Text, "not a valid JSON object") {
		t.Errorf("result = %+v", res)
	}
	if call := turn.Messages[1].ToolCalls[0]; call.Arguments != `{"ids": [` {
		t.Errorf("the call was not kept as written: %+v", call)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "not a JSON object") {
		t.Errorf("warnings %q", warnings)
	}
}

// A provider failure fails the turn with its error; what streamed before
// it is stored, and a turn that got no answer at all is left out of the
// next request (the person sends again) but kept in the store.
func TestSendFailureKeepsTheTranscript(t *testing.T) {
	f := newChatFixture(t, nil)
	ctx := context.Background()
	refused := func(chat.ModelRequest) (chat.ModelReply, error) {
		return chat.ModelReply{}, chat.NewModelError(fault.KindUnauthorized, 401, nil, "provider x refused the API key (HTTP 401)")
	}
	cut := func(chat.ModelRequest) (chat.ModelReply, error) {
		return chat.ModelReply{Text: "half an ans"}, chat.NewModelError(fault.KindProtocol, 0, nil, "the stream ended early")
	}
	model := (&hosttest.ScriptModel{}).Then(refused, cut, hosttest.Say("whole"))
	opts := chat.SendOptions{Model: model}
	if _, err := f.ch.Send(ctx, f.conv, "lost?", opts); !errors.Is(err, fault.ErrUnauthorized) {
		t.Fatalf("err = %v; want unauthorized", err)
	}
	if _, err := f.ch.Send(ctx, f.conv, "again", opts); !errors.Is(err, fault.ErrProtocol) {
		t.Fatalf("err = %v; want protocol", err)
	}
	if _, err := f.ch.Send(ctx, f.conv, "third", opts); err != nil {
		t.Fatal(err)
	}
	turns, _ := f.ch.Turns(ctx, f.conv)
	if len(turns) != 3 || turns[0].Status != chat.TurnFailed || turns[0].ErrorKind != fault.KindUnauthorized ||
		turns[0].Messages[0].Text != "lost?" || turns[1].Messages[1].Text != "half an ans" {
		t.Fatalf("stored turns = %+v", turns)
	}
	var texts []string
	for _, m := range model.Sent()[2].Messages {
		texts = append(texts, m.Text)
	}
	if diff := cmp.Diff([]string{"again", "half an ans", "third"}, texts); diff != "" {
		t.Errorf("third request's messages (-want +got):\n%s", diff)
	}
}

// Stop: the context ends while the model answers; the turn is stored as
// stopped, with the text so far.
func TestSendStop(t *testing.T) {
	f := newChatFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	model := (&hosttest.ScriptModel{}).Then(func(chat.ModelRequest) (chat.ModelReply, error) {
		cancel()
		return chat.ModelReply{Text: "so far"}, chat.NewModelError(fault.KindCanceled, 0, context.Canceled, "stopped")
	})
	turn, err := f.ch.Send(ctx, f.conv, "x", chat.SendOptions{Model: model})
	if !errors.Is(err, fault.ErrCanceled) || turn.Status != chat.TurnStopped {
		t.Fatalf("turn %s, %v; want stopped", turn.Status, err)
	}
	stored, _ := f.ch.Turns(context.Background(), f.conv)
	if stored[0].Status != chat.TurnStopped || stored[0].Messages[1].Text != "so far" {
		t.Errorf("stored = %+v", stored[0])
	}
}

// After MaxToolRounds rounds of calls, the model is asked once more with
// tool calls forbidden; if it calls tools all the same, the turn fails,
// and the next turn's history answers the calls it left.
func TestSendToolRoundLimit(t *testing.T) {
	f := newChatFixture(t, &chat.Options{MaxToolRounds: 2})
	always := hosttest.CallTool("briefing", `{}`)
	model := (&hosttest.ScriptModel{}).Then(always, always, always, hosttest.Say("fine"))
	ctx := context.Background()
	_, err := f.ch.Send(ctx, f.conv, "loop", chat.SendOptions{Model: model, Tools: consent.ToolsAuto})
	if !errors.Is(err, fault.ErrServerFault) || !strings.Contains(err.Error(), "after 2 tool rounds") {
		t.Fatalf("err = %v; want the round limit", err)
	}
	reqs := model.Sent()
	if len(reqs) != 3 || reqs[0].NoToolCalls || reqs[1].NoToolCalls || !reqs[2].NoToolCalls {
		t.Fatalf("%d requests; want 3, the last one forbidding tool calls", len(reqs))
	}
	if _, err := f.ch.Send(ctx, f.conv, "next", chat.SendOptions{Model: model}); err != nil {
		t.Fatal(err)
	}
	msgs := model.Sent()[3].Messages
	if m := msgs[len(msgs)-2]; m.Role != chat.RoleTool || !strings.Contains(m.Text, "not run") {
		t.Errorf("the call left without a result is answered with %+v", m)
	}
}

// mutableServer is a go-sdk server whose one resource, mem://doc, has
// the body in *body.
func mutableServer(t *testing.T, body *atomic.Value) config.ServerConfig {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mutable", Version: "1"}, nil)
	srv.AddResource(&mcp.Resource{URI: "mem://doc", Name: "doc", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://doc", MIMEType: "text/plain", Text: body.Load().(string)}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return config.ServerConfig{Name: "mutable", URL: hs.URL}
}

// Staleness reaches the model: a body that changed since a turn sent it
// comes with a note, once; the turn after sees no note.
func TestSendSupersession(t *testing.T) {
	var body atomic.Value
	body.Store("the plan is A")
	sc := mutableServer(t, &body)
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t)}, sc)
	st := hosttest.State(t)
	cv := hostcore.NewConversations(h, st)
	ch := chat.New(cv, st, nil)
	ctx := context.Background()
	conv, _ := cv.Create(ctx, "s")
	c, _ := h.Conn(sc.Name, "")
	if _, err := cv.AttachURI(ctx, conv.ID, c, "mem://doc"); err != nil {
		t.Fatal(err)
	}
	model := (&hosttest.ScriptModel{}).Then(hosttest.Say("A it is"), hosttest.Say("B then"), hosttest.Say("still B"))
	opts := chat.SendOptions{Model: model}
	for i, msg := range []string{"plan?", "and now?", "sure?"} {
		if i == 1 {
			body.Store("the plan is B")
		}
		if _, err := ch.Send(ctx, conv.ID, msg, opts); err != nil {
			t.Fatal(err)
		}
	}
	reqs := model.Sent()
	if strings.Contains(reqs[0].System, "superseded") || strings.Contains(reqs[2].System, "superseded") {
		t.Errorf("a note where nothing changed:\n%s\n---\n%s", reqs[0].System, reqs[2].System)
	}
	note := "mem://doc was updated at "
	if !strings.Contains(reqs[1].System, note) || !strings.Contains(reqs[1].System, "sent in turn 1) is superseded") ||
		!strings.Contains(reqs[1].System, "the plan is B") || strings.Contains(reqs[1].System, "the plan is A") {
		t.Errorf("the second request's system prompt:\n%s", reqs[1].System)
	}
	turns, _ := ch.Turns(ctx, conv.ID)
	if s := turns[1].Context.Supersessions; len(s) != 1 || s[0].URI != "mem://doc" || s[0].SentInTurn != 1 || !s[0].InContext {
		t.Errorf("stored supersessions = %+v", s)
	}
}

func TestMain(m *testing.M) { testbin.Main(m) }
