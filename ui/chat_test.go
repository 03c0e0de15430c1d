package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/provider"
)

// chatHarness is the window with a model loop over the scripted provider
// and one memory of the demo attached, its conversation window open.
func chatHarness(t *testing.T, script ...modeltest.Step) (*harness, *chatView, *modeltest.Server, []string) {
	t.Helper()
	srv := modeltest.New(nil, script...)
	t.Cleanup(srv.Close)
	h := newHarness(t)
	if err := h.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: models.OpenAI,
		BaseURL: srv.OpenAIBaseURL(), Model: "scripted-1", MaxRetries: new(int)}); err != nil { // the script answers once
		t.Fatal(err)
	}
	ids := h.memoryIDs("acme", "m", 2)
	h.attachIDs(ids[0])
	return h, h.openChat(), srv, ids
}

// wireChat gives the window a model loop over its conversations, with
// models built by the real provider adapters.
func (h *harness) wireChat() {
	store := h.st
	h.do(func() {
		h.app.sh.opts.Chat = chat.New(h.cv, store, nil)
		h.app.sh.opts.Models = func(pc models.Provider) (chat.Model, error) { return provider.New(pc, nil) }
	})
}

// openChat wires the model loop and taps Send beside the context preview,
// which opens the conversation's window.
func (h *harness) openChat() *chatView {
	h.t.Helper()
	h.wireChat()
	p := h.app.attachments.preview
	h.do(func() { test.Tap(p.send) })
	h.settle()
	if p.chat.win == nil {
		h.t.Fatal("Send opened no conversation window")
	}
	return p.chat
}

// send types a message and taps Send.
func (h *harness) sendChat(c *chatView, text string) {
	h.do(func() { test.Type(c.entry, text) })
	h.do(func() { test.Tap(c.send) })
}

// transcript is the conversation's text, line by line.
func (h *harness) transcript(c *chatView) string {
	var b strings.Builder
	h.do(func() {
		for _, o := range test.LaidOutObjects(c.lines) {
			if l, ok := o.(*widget.Label); ok {
				b.WriteString(l.Text + "\n")
			}
		}
	})
	return b.String()
}

// waitText polls the transcript until it holds want.
func (h *harness) waitText(c *chatView, want string) string {
	h.t.Helper()
	var got string
	h.waitFor(fmt.Sprintf("%q in the conversation", want), func() bool {
		got = h.transcript(c)
		return strings.Contains(got, want)
	})
	return got
}

// A streamed answer appears after the person's message, and the turn's
// request shows the host's count beside the provider's usage.
func TestChatStreamsAnswerWithUsage(t *testing.T) {
	h, c, srv, _ := chatHarness(t, modeltest.Say(modeltest.Reply{Text: "The memory says hello.", Chunks: 4,
		InputTokens: 321, OutputTokens: 9}))
	h.sendChat(c, "What is attached?")
	got := h.waitText(c, "provider reported 321 in, 9 out")
	h.waitFor("the turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	got = h.transcript(c)
	for _, want := range []string{"You: What is attached?", "The memory says hello.", "Request 1: host counted "} {
		if !strings.Contains(got, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, got)
		}
	}
	if n := len(srv.Requests()); n != 1 || !srv.Requests()[0].Stream {
		t.Errorf("%d requests (streamed: %v), want one streamed", n, n > 0 && srv.Requests()[0].Stream)
	}
}

// A tool call asks for approval in a dialog; Allow once runs it on the
// demo server, and the result is shown and sent back to the model.
func TestChatToolApprovalAllowOnce(t *testing.T) {
	var other string
	h, c, srv, ids := chatHarness(t,
		func(modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Text: "Let me look.", ToolCalls: []modeltest.Call{
				{ID: "call_1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, other)}}}
		},
		modeltest.Say(modeltest.Reply{Text: "Done reading."}))
	other = ids[1]
	h.sendChat(c, "Read the other one")
	var once *button
	h.waitFor("the approval dialog", func() bool {
		h.do(func() { once = findButton(c.win.Canvas(), "Allow once") })
		return once != nil
	})
	h.do(func() {
		if findButton(c.win.Canvas(), "Always for this tool in this conversation") == nil || findButton(c.win.Canvas(), "Deny") == nil {
			t.Error("the approval dialog lacks Always or Deny")
		}
	})
	h.do(func() { test.Tap(once) })
	got := h.waitText(c, "Done reading.")
	for _, want := range []string{"Tool call: get_memories of demo with {\"ids\":[\"" + other + "\"]}", "Tool result (allowed once):\n{"} {
		if !strings.Contains(got, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, got)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	p, err := reqs[1].Parse()
	if err != nil {
		t.Fatal(err)
	}
	if res := p.ToolResults(); len(res) != 1 || !strings.Contains(res[0], other) {
		t.Errorf("the result sent back = %q; want get_memories' answer for %s", res, other)
	}
}

// Stop ends a turn waiting for approval; the text that arrived stays.
func TestChatStopKeepsText(t *testing.T) {
	h, c, _, ids := chatHarness(t, modeltest.Say(modeltest.Reply{Text: "Partial thought.", ToolCalls: []modeltest.Call{
		{ID: "call_1", Name: "get_memories", Arguments: `{"ids":["x"]}`}}}))
	_ = ids
	h.sendChat(c, "Go")
	h.waitFor("the approval dialog", func() bool {
		var b *button
		h.do(func() { b = findButton(c.win.Canvas(), "Allow once") })
		return b != nil
	})
	h.do(func() { test.Tap(c.stop) })
	got := h.waitText(c, "Stopped.")
	if !strings.Contains(got, "Partial thought.") {
		t.Errorf("the streamed text was lost on Stop:\n%s", got)
	}
	h.do(func() {
		if c.send.Disabled() || c.stop.Visible() {
			t.Error("after Stop, Send is still disabled or Stop still shown")
		}
		if findButton(c.win.Canvas(), "Allow once") != nil {
			t.Error("the approval dialog outlived the turn")
		}
	})
}

// findButton is the visible button labelled text on the canvas, overlays
// included.
func findButton(cv fyne.Canvas, text string) *button {
	roots := []fyne.CanvasObject{cv.Content()}
	for _, o := range cv.Overlays().List() {
		roots = append(roots, o)
	}
	for _, r := range roots {
		for _, o := range test.LaidOutObjects(r) {
			if b, ok := o.(*button); ok && b.Text == text && b.Visible() {
				return b
			}
		}
	}
	return nil
}

// A provider's failure is said in the conversation, and what was sent
// stays in it.
func TestChatErrorInConversation(t *testing.T) {
	h, c, _, _ := chatHarness(t, modeltest.Say(modeltest.Reply{Status: 401}))
	h.sendChat(c, "Anyone there?")
	got := h.waitText(c, "Error: ")
	if !strings.Contains(got, "You: Anyone there?") {
		t.Errorf("the message was lost from the conversation:\n%s", got)
	}
	h.waitFor("Send to come back", func() bool { var r bool; h.do(func() { r = !c.send.Disabled() }); return r })
}

// With no provider in the config, the window says how to add one, and
// Send is off.
func TestChatNoProvider(t *testing.T) {
	h := newHarness(t)
	p := h.app.attachments.preview
	h.openChat()
	got := h.transcript(p.chat)
	if !strings.Contains(got, "No model provider is configured") || !strings.Contains(got, `"providers"`) {
		t.Errorf("the window does not say how to add a provider:\n%s", got)
	}
	h.do(func() {
		if !p.chat.send.Disabled() {
			t.Error("Send is on with no provider")
		}
	})
}
