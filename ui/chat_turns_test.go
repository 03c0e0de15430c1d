package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
)

// waitTurnEnd waits until no turn runs in the conversation window.
func (h *harness) waitTurnEnd(c *chatView) {
	h.t.Helper()
	h.waitFor("the turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	h.settle()
}

// labels is the text of every label laid out under o, line by line.
func labels(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// Each bad answer of a provider, and a tool call whose arguments are not
// JSON, is said in the conversation in words, and the person's message
// stays in the transcript; Send comes back.
func TestChatBadInput(t *testing.T) {
	for _, tt := range []struct {
		name  string
		steps []modeltest.Step
		base  string // instead of the scripted server's
		says  []string
	}{
		{name: "provider down", base: "http://127.0.0.1:1/v1", says: []string{"Error: ", "cannot be reached at http://127.0.0.1:1"}},
		{name: "401", steps: []modeltest.Step{modeltest.Say(modeltest.Reply{Status: 401})}, says: []string{"Error: ", "refused the API key (HTTP 401)"}},
		{name: "429 with Retry-After", steps: []modeltest.Step{modeltest.Say(modeltest.Reply{Status: 429, RetryAfter: "7"})},
			says: []string{"Error: ", "rate limiting (HTTP 429); it asks to wait 7s"}},
		{name: "malformed stream", steps: []modeltest.Step{modeltest.Say(modeltest.Reply{Text: "the start of it", Malformed: true})},
			says: []string{"the s", "Error: ", "could not be understood"}},
		{name: "invalid arguments", steps: []modeltest.Step{
			modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c1", Name: "get_memories", Arguments: `{"ids": [`}}}),
			modeltest.Say(modeltest.Reply{Text: "I could not read it."})},
			says: []string{"Warning: the model called get_memories with arguments that are not a JSON object",
				"Tool error (not run: arguments are not a JSON object):\nThe tool was not called: its arguments are not a valid JSON object", "I could not read it."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, c, _, _ := chatHarness(t, tt.steps...)
			if tt.base != "" {
				if err := h.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: models.OpenAI,
					BaseURL: tt.base, Model: "scripted-1", MaxRetries: new(int)}); err != nil {
					t.Fatal(err)
				}
			}
			h.sendChat(c, "Are you there?")
			h.waitTurnEnd(c)
			got := h.transcript(c)
			for _, want := range append([]string{"You: Are you there?"}, tt.says...) {
				if !strings.Contains(got, want) {
					t.Errorf("the conversation lacks %q:\n%s", want, got)
				}
			}
			h.do(func() {
				if c.send.Disabled() || c.stop.Visible() {
					t.Error("Send did not come back after the turn")
				}
			})
		})
	}
}

// The window opened again (the app restarted) shows the earlier turns as
// stored: the message, the answer, the tool call and result, the usage,
// and each turn's footer.
func TestChatShowsEarlierTurns(t *testing.T) {
	var other string
	h, c, _, ids := chatHarness(t,
		func(modeltest.Request) modeltest.Reply {
			return modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, other)}}}
		},
		modeltest.Say(modeltest.Reply{Text: "The other one is about something else.", InputTokens: 40, OutputTokens: 8}))
	other = ids[1]
	h.sendChat(c, "And the other?")
	h.waitFor("the approval dialog", func() bool { var r bool; h.do(func() { r = c.pending != nil }); return r })
	h.do(func() { c.pending(consent.ApproveOnce) })
	h.waitTurnEnd(c)

	if err := h.host.Config().Save(); err != nil { // the provider, for the next launch
		t.Fatal(err)
	}
	h.do(c.close)
	h.do(h.app.Close)
	h.open()
	c = h.openChat()
	got := h.waitText(c, "Turn 1 · done")
	for _, want := range []string{"You: And the other?", "Tool call: get_memories of demo with {\"ids\":[\"" + other + "\"]}",
		"Tool result (allowed once):\n{", other, "The other one is about something else.", "provider reported 40 in, 8 out",
		"1 of 1 attachment sent · 2 requests"} {
		if !strings.Contains(got, want) {
			t.Errorf("the reopened conversation lacks %q:\n%s", want, got)
		}
	}
	if i, j := strings.Index(got, "You: And the other?"), strings.Index(got, "The other one"); i < 0 || j < i {
		t.Errorf("the earlier turn is out of order:\n%s", got)
	}
}

// Inspect opens the turn whole: every attachment in rank order with its
// verdict and cache status, the tools and their listing cost, the system
// prompt as sent. Replay sends the first request again to the picked
// provider, shows the answer and stores nothing.
func TestChatInspectAndReplay(t *testing.T) {
	h, c, srv, ids := chatHarness(t, modeltest.Say(modeltest.Reply{Text: "First answer."}))
	h.sendChat(c, "Summarise")
	h.waitTurnEnd(c)
	var inspect *button
	h.do(func() { inspect = findButton(c.win.Canvas(), "Inspect") })
	if inspect == nil {
		t.Fatal("no Inspect button after the turn")
	}
	h.do(func() { test.Tap(inspect) })
	h.settle()
	var w fyne.Window
	h.do(func() { w = c.inspectors[1] })
	if w == nil {
		t.Fatal("Inspect opened no window")
	}
	var shown string
	h.do(func() {
		tabs := findTabs(w.Canvas().Content())
		for i := range tabs.Items {
			tabs.SelectIndex(i)
			shown += labels(tabs.Items[i].Content)
		}
		tabs.SelectIndex(3)
	})
	for _, want := range []string{"1. included · threengram://memory/" + ids[0], "cache ", "Tools offered: ",
		"get_memories of demo", "## threengram://memory/" + ids[0], "user\n", "Summarise", "First answer."} {
		if !strings.Contains(shown, want) {
			t.Errorf("the inspector lacks %q:\n%s", want, shown)
		}
	}

	srv.Then(modeltest.Say(modeltest.Reply{Text: "Replayed answer.", Chunks: 3}))
	var replay *button
	h.do(func() { replay = findButton(w.Canvas(), "Replay") })
	if replay == nil {
		t.Fatal("no Replay button")
	}
	h.do(func() { test.Tap(replay) })
	h.waitFor("the replayed answer", func() bool {
		var r bool
		h.do(func() {
			r = strings.Contains(labels(w.Canvas().Content()), "scripted (scripted-1) answered:\n\nReplayed answer.")
		})
		return r
	})
	reqs := srv.Requests()
	first, _ := reqs[0].Parse()
	again, _ := reqs[len(reqs)-1].Parse()
	if len(reqs) != 2 || again.System != first.System || again.LastUser() != "Summarise" {
		t.Errorf("%d requests; the replay is not the first request again", len(reqs))
	}
	if ts, _ := h.app.sh.opts.Chat.Turns(h.app.sh.ctx, c.conv); len(ts) != 1 {
		t.Errorf("a replay stored a turn: %d turns", len(ts))
	}
}

// findTabs is the first AppTabs under o.
func findTabs(o fyne.CanvasObject) *container.AppTabs {
	for _, x := range test.LaidOutObjects(o) {
		if t, ok := x.(*container.AppTabs); ok {
			return t
		}
	}
	return nil
}

// "Always" shows under the tools with a Revoke; revoked, the next call of
// the tool is asked about again.
func TestChatRevokeAlways(t *testing.T) {
	var other string
	call := func(modeltest.Request) modeltest.Reply {
		return modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, other)}}}
	}
	h, c, srv, ids := chatHarness(t, call, modeltest.Say(modeltest.Reply{Text: "one"}))
	other = ids[1]
	h.sendChat(c, "first")
	h.waitFor("the approval dialog", func() bool { var r bool; h.do(func() { r = c.pending != nil }); return r })
	h.do(func() { c.pending(consent.ApproveAlways) })
	h.waitTurnEnd(c)
	var revoke *button
	h.do(func() { revoke = findButton(c.win.Canvas(), "get_memories of demo") })
	if revoke == nil {
		t.Fatal("no Revoke for the tool allowed always")
	}
	h.do(func() { test.Tap(revoke) })
	h.settle()
	grants, err := h.host.Consent().Grants(h.app.sh.ctx, c.conv)
	if err != nil || len(grants) != 0 {
		t.Errorf("after Revoke the grant is still stored: %+v, %v", grants, err)
	}
	h.do(func() {
		if c.always.Visible() || findButton(c.win.Canvas(), "get_memories of demo") != nil {
			t.Error("the revoked grant is still shown")
		}
	})
	srv.Then(call, modeltest.Say(modeltest.Reply{Text: "two"}))
	h.sendChat(c, "second")
	h.waitFor("the approval dialog again", func() bool { var r bool; h.do(func() { r = c.pending != nil }); return r })
	h.do(func() { c.pending(consent.ApproveDeny) })
	h.waitTurnEnd(c)
}
