package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/threengram"
)

// scriptModel is a model at the edge of the domain: each request gets the
// next step's reply (its text streamed in two pieces), and every request is
// kept. The providers' own wire formats are tested in package provider
// against internal/modeltest.
type scriptModel struct {
	mu       sync.Mutex
	steps    []func(hostcore.ModelRequest) (hostcore.ModelReply, error)
	requests []hostcore.ModelRequest
}

func (m *scriptModel) Complete(ctx context.Context, req hostcore.ModelRequest, onText func(string)) (hostcore.ModelReply, error) {
	m.mu.Lock()
	m.requests = append(m.requests, req)
	if len(m.steps) == 0 {
		m.mu.Unlock()
		return hostcore.ModelReply{}, hostcore.NewModelError(hostcore.KindServerFault, 500, nil, "script exhausted")
	}
	step := m.steps[0]
	m.steps = m.steps[1:]
	m.mu.Unlock()
	reply, err := step(req)
	if half := len(reply.Text) / 2; onText != nil && reply.Text != "" {
		onText(reply.Text[:half])
		onText(reply.Text[half:])
	}
	return reply, err
}

func (m *scriptModel) then(steps ...func(hostcore.ModelRequest) (hostcore.ModelReply, error)) *scriptModel {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps = append(m.steps, steps...)
	return m
}

func (m *scriptModel) sent() []hostcore.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

func say(text string) func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
	return func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
		return hostcore.ModelReply{Text: text, StopReason: "stop", Usage: hostcore.Usage{InputTokens: 100, OutputTokens: 5, Reported: true}}, nil
	}
}

func callTool(name, args string) func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
	return func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
		return hostcore.ModelReply{ToolCalls: []hostcore.ToolCall{{ID: "call_" + name, Name: name, Arguments: args}},
			StopReason: "tool_calls", Usage: hostcore.Usage{InputTokens: 90, OutputTokens: 12, Reported: true}}, nil
	}
}

// chatFixture is a conversation over two real servers: threengram over
// loopback HTTP (a memory attached by id), and the annotated mcptest
// server (its readme is priority 1, its logo is for the user only).
type chatFixture struct {
	ch     *hostcore.Chat
	cv     *hostcore.Conversations
	conv   int64
	memory string // the attached memory's id
	other  string // another memory of the tenant, for get_memories
}

func newChatFixture(t *testing.T, opts *hostcore.ChatOptions) chatFixture {
	t.Helper()
	tg, _ := threengramHTTP(t)
	annotated, err := mcptest.Handler(mcptest.ModeV2025Nov, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(annotated)
	t.Cleanup(srv.Close)
	ann := hostcore.ServerConfig{Name: "annotated", URL: srv.URL + "/mcp"}
	st := openState(t)
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Grants: st}, tg, ann)
	cv := hostcore.NewConversations(h, st)
	ctx := context.Background()
	conv, _ := cv.Store().CreateConversation(ctx, "chat")
	acme, _ := h.Conn(tg.Name, "acme")
	ids := someIDs(t, acme)
	if _, err := cv.AttachID(ctx, conv.ID, acme, ids[0]); err != nil {
		t.Fatal(err)
	}
	c, _ := h.Conn(ann.Name, "")
	for _, uri := range []string{mcptest.ReadmeURI, mcptest.LogoURI} {
		if _, err := cv.AttachURI(ctx, conv.ID, c, uri); err != nil {
			t.Fatal(err)
		}
	}
	return chatFixture{ch: hostcore.NewChat(cv, st, opts), cv: cv, conv: conv.ID, memory: ids[0], other: ids[1]}
}

// The whole turn: the context goes in the system prompt (the priority-1
// readme and the memory in readable form, never the user-only logo), the
// servers' tools are offered, the model's get_memories call reaches
// threengram and its result goes back, and the turn is stored with every
// request counted on both sides.
func TestSendRunsTheWholeTurn(t *testing.T) {
	f := newChatFixture(t, nil)
	model := (&scriptModel{}).then(callTool("get_memories", fmt.Sprintf(`{"ids":[%q]}`, f.other)), say("Here is what I found."))
	var events []hostcore.EventKind
	var streamed strings.Builder
	turn, err := f.ch.Send(context.Background(), f.conv, "What do I know?", hostcore.SendOptions{
		Model: model, Provider: "scripted", ModelName: "m", Tools: hostcore.ToolsAuto,
		OnEvent: func(e hostcore.Event) {
			events = append(events, e.Kind)
			if e.Kind == hostcore.EventText {
				streamed.WriteString(e.Text)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := model.sent()
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
	if last.Role != hostcore.RoleTool || last.IsError || !strings.Contains(last.Text, f.other) || !strings.Contains(last.Text, `"content"`) {
		t.Errorf("the tool result sent back = %+v; want get_memories' answer for %s", last, f.other)
	}
	if turn.Status != hostcore.TurnDone || turn.Seq != 1 || streamed.String() != "Here is what I found." {
		t.Errorf("turn %d %s, streamed %q", turn.Seq, turn.Status, streamed.String())
	}
	wantEvents := []hostcore.EventKind{hostcore.EventStarted, hostcore.EventRequest, hostcore.EventReply,
		hostcore.EventToolCall, hostcore.EventToolResult, hostcore.EventRequest, hostcore.EventText, hostcore.EventText, hostcore.EventReply}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	stored, err := f.ch.Store().Turns(context.Background(), f.conv)
	if err != nil || len(stored) != 1 {
		t.Fatalf("stored turns: %d, %v", len(stored), err)
	}
	if diff := cmp.Diff(turn, stored[0]); diff != "" {
		t.Errorf("the stored turn differs from the one returned (-returned +stored):\n%s", diff)
	}
	var roles []hostcore.Role
	for _, m := range stored[0].Messages {
		roles = append(roles, m.Role)
	}
	if diff := cmp.Diff([]hostcore.Role{"user", "assistant", "tool", "assistant"}, roles); diff != "" {
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
	replay, err := hostcore.ReplayRequest(stored, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reqs[0], replay); diff != "" {
		t.Errorf("replayed request differs from the one sent (-sent +replayed):\n%s", diff)
	}
	// Replay sends that request to a model, and stores nothing.
	again := (&scriptModel{}).then(say("Still the same."))
	reply, err := f.ch.Replay(context.Background(), f.conv, 1, again, nil)
	if err != nil || reply.Text != "Still the same." {
		t.Fatalf("Replay: %q, %v", reply.Text, err)
	}
	if diff := cmp.Diff([]hostcore.ModelRequest{reqs[0]}, again.sent()); diff != "" {
		t.Errorf("Replay sent another request (-first sent +replayed):\n%s", diff)
	}
	if after, _ := f.ch.Store().Turns(context.Background(), f.conv); len(after) != 1 {
		t.Errorf("Replay stored a turn: %d turns", len(after))
	}
	if _, err := f.ch.Replay(context.Background(), f.conv, 7, again, nil); !errors.Is(err, hostcore.ErrNotFound) {
		t.Errorf("Replay of a turn that does not exist: %v, want not found", err)
	}
}

// Ask: every call waits for the person; Always is remembered in the
// conversation and not asked again; Deny tells the model, and runs nothing.
func TestSendApprovals(t *testing.T) {
	f := newChatFixture(t, nil)
	ctx := context.Background()
	var asked []string
	answers := []hostcore.Approval{hostcore.ApproveAlways, hostcore.ApproveDeny}
	approve := func(_ context.Context, req hostcore.ToolRequest) (hostcore.Approval, error) {
		asked = append(asked, req.Server+"/"+req.Tool.Name+" "+string(req.Arguments))
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	args := fmt.Sprintf(`{"ids":[%q]}`, f.other)
	model := (&scriptModel{}).then(callTool("get_memories", args), say("one"), callTool("get_memories", args),
		callTool("briefing", `{}`), say("two"))
	opts := hostcore.SendOptions{Model: model, Tools: hostcore.ToolsAsk, Approve: approve}
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
	results := map[string]hostcore.Message{}
	for _, m := range turn.Messages {
		if m.Role == hostcore.RoleTool {
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
	model := (&scriptModel{}).then(callTool("get_memories", `{"ids": [`), say("sorry"))
	var warnings []string
	turn, err := f.ch.Send(context.Background(), f.conv, "x", hostcore.SendOptions{Model: model, Tools: hostcore.ToolsAsk,
		Approve: func(context.Context, hostcore.ToolRequest) (hostcore.Approval, error) {
			t.Error("asked to approve a call with invalid arguments")
			return hostcore.ApproveDeny, nil
		},
		OnEvent: func(e hostcore.Event) {
			if e.Kind == hostcore.EventWarning {
				warnings = append(warnings, e.Text)
			}
		}})
	if err != nil || turn.Status != hostcore.TurnDone {
		t.Fatalf("turn %s, %v; want done", turn.Status, err)
	}
	res := turn.Messages[2]
	if res.Role != hostcore.RoleTool || !res.IsError || !strings.Contains(res.Text, "not a valid JSON object") {
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
	refused := func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
		return hostcore.ModelReply{}, hostcore.NewModelError(hostcore.KindUnauthorized, 401, nil, "provider x refused the API key (HTTP 401)")
	}
	cut := func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
		return hostcore.ModelReply{Text: "half an ans"}, hostcore.NewModelError(hostcore.KindProtocol, 0, nil, "the stream ended early")
	}
	model := (&scriptModel{}).then(refused, cut, say("whole"))
	opts := hostcore.SendOptions{Model: model}
	if _, err := f.ch.Send(ctx, f.conv, "lost?", opts); !errors.Is(err, hostcore.ErrUnauthorized) {
		t.Fatalf("err = %v; want unauthorized", err)
	}
	if _, err := f.ch.Send(ctx, f.conv, "again", opts); !errors.Is(err, hostcore.ErrProtocol) {
		t.Fatalf("err = %v; want protocol", err)
	}
	if _, err := f.ch.Send(ctx, f.conv, "third", opts); err != nil {
		t.Fatal(err)
	}
	turns, _ := f.ch.Store().Turns(ctx, f.conv)
	if len(turns) != 3 || turns[0].Status != hostcore.TurnFailed || turns[0].ErrorKind != hostcore.KindUnauthorized ||
		turns[0].Messages[0].Text != "lost?" || turns[1].Messages[1].Text != "half an ans" {
		t.Fatalf("stored turns = %+v", turns)
	}
	var texts []string
	for _, m := range model.sent()[2].Messages {
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
	model := (&scriptModel{}).then(func(hostcore.ModelRequest) (hostcore.ModelReply, error) {
		cancel()
		return hostcore.ModelReply{Text: "so far"}, hostcore.NewModelError(hostcore.KindCanceled, 0, context.Canceled, "stopped")
	})
	turn, err := f.ch.Send(ctx, f.conv, "x", hostcore.SendOptions{Model: model})
	if !errors.Is(err, hostcore.ErrCanceled) || turn.Status != hostcore.TurnStopped {
		t.Fatalf("turn %s, %v; want stopped", turn.Status, err)
	}
	stored, _ := f.ch.Store().Turns(context.Background(), f.conv)
	if stored[0].Status != hostcore.TurnStopped || stored[0].Messages[1].Text != "so far" {
		t.Errorf("stored = %+v", stored[0])
	}
}

// After MaxToolRounds rounds of calls, the model is asked once more with
// tool calls forbidden; if it calls tools all the same, the turn fails,
// and the next turn's history answers the calls it left.
func TestSendToolRoundLimit(t *testing.T) {
	f := newChatFixture(t, &hostcore.ChatOptions{MaxToolRounds: 2})
	always := callTool("briefing", `{}`)
	model := (&scriptModel{}).then(always, always, always, say("fine"))
	ctx := context.Background()
	_, err := f.ch.Send(ctx, f.conv, "loop", hostcore.SendOptions{Model: model, Tools: hostcore.ToolsAuto})
	if !errors.Is(err, hostcore.ErrServerFault) || !strings.Contains(err.Error(), "after 2 tool rounds") {
		t.Fatalf("err = %v; want the round limit", err)
	}
	reqs := model.sent()
	if len(reqs) != 3 || reqs[0].NoToolCalls || reqs[1].NoToolCalls || !reqs[2].NoToolCalls {
		t.Fatalf("%d requests; want 3, the last one forbidding tool calls", len(reqs))
	}
	if _, err := f.ch.Send(ctx, f.conv, "next", hostcore.SendOptions{Model: model}); err != nil {
		t.Fatal(err)
	}
	msgs := model.sent()[3].Messages
	if m := msgs[len(msgs)-2]; m.Role != hostcore.RoleTool || !strings.Contains(m.Text, "not run") {
		t.Errorf("the call left without a result is answered with %+v", m)
	}
}

// mutableServer is a go-sdk server whose one resource, mem://doc, has
// the body in *body.
func mutableServer(t *testing.T, body *atomic.Value) hostcore.ServerConfig {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mutable", Version: "1"}, nil)
	srv.AddResource(&mcp.Resource{URI: "mem://doc", Name: "doc", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://doc", MIMEType: "text/plain", Text: body.Load().(string)}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hostcore.ServerConfig{Name: "mutable", URL: hs.URL}
}

// Staleness reaches the model: a body that changed since a turn sent it
// comes with a note, once; the turn after sees no note.
func TestSendSupersession(t *testing.T) {
	var body atomic.Value
	body.Store("the plan is A")
	sc := mutableServer(t, &body)
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
	st := openState(t)
	cv := hostcore.NewConversations(h, st)
	ch := hostcore.NewChat(cv, st, nil)
	ctx := context.Background()
	conv, _ := cv.Store().CreateConversation(ctx, "s")
	c, _ := h.Conn(sc.Name, "")
	if _, err := cv.AttachURI(ctx, conv.ID, c, "mem://doc"); err != nil {
		t.Fatal(err)
	}
	model := (&scriptModel{}).then(say("A it is"), say("B then"), say("still B"))
	opts := hostcore.SendOptions{Model: model}
	for i, msg := range []string{"plan?", "and now?", "sure?"} {
		if i == 1 {
			body.Store("the plan is B")
		}
		if _, err := ch.Send(ctx, conv.ID, msg, opts); err != nil {
			t.Fatal(err)
		}
	}
	reqs := model.sent()
	if strings.Contains(reqs[0].System, "superseded") || strings.Contains(reqs[2].System, "superseded") {
		t.Errorf("a note where nothing changed:\n%s\n---\n%s", reqs[0].System, reqs[2].System)
	}
	note := "mem://doc was updated at "
	if !strings.Contains(reqs[1].System, note) || !strings.Contains(reqs[1].System, "sent in turn 1) is superseded") ||
		!strings.Contains(reqs[1].System, "the plan is B") || strings.Contains(reqs[1].System, "the plan is A") {
		t.Errorf("the second request's system prompt:\n%s", reqs[1].System)
	}
	turns, _ := ch.Store().Turns(ctx, conv.ID)
	if s := turns[1].Context.Supersessions; len(s) != 1 || s[0].URI != "mem://doc" || s[0].SentInTurn != 1 || !s[0].InContext {
		t.Errorf("stored supersessions = %+v", s)
	}
}
