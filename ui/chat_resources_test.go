package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/modeltest"
)

// A tool result that embeds a resource for the user only: the person sees
// it in the conversation, with Attach, and the turn says it was held
// back; the scripted model's recorded request bodies, in both wire
// formats, never carry it. The resource embedded for both audiences does
// reach the model.
func TestChatHoldsBackUserOnlyResources(t *testing.T) {
	for _, kind := range []string{models.OpenAI, models.Anthropic} {
		t.Run(kind, func(t *testing.T) { checkHeldBack(t, kind) })
	}
}

func checkHeldBack(t *testing.T, kind string) {
	srv := modeltest.New(nil,
		modeltest.Say(modeltest.Reply{Text: "Fetching.", ToolCalls: []modeltest.Call{{ID: "call_1", Name: mcptest.DeliverTool, Arguments: `{}`}}}),
		modeltest.Say(modeltest.Reply{Text: "Here they are."}))
	t.Cleanup(srv.Close)
	h := newHarness(t)
	base := srv.OpenAIBaseURL()
	if kind == models.Anthropic {
		base = srv.AnthropicBaseURL()
	}
	if err := h.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: kind,
		BaseURL: base, Model: "scripted-1", MaxRetries: new(int)}); err != nil {
		t.Fatal(err)
	}
	if err := h.try(func() error { return h.app.SelectServer("era", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource(mcptest.ReadmeURI) }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach) // the era server's tools are offered
	h.settle()
	c := h.openChat()
	h.sendChat(c, "Deliver the resources")
	var once *button
	h.waitFor("the approval dialog", func() bool {
		h.do(func() { once = findButton(c.win.Canvas(), "Allow once") })
		return once != nil
	})
	h.do(func() { test.Tap(once) })
	got := h.waitText(c, "Here they are.")
	for _, want := range []string{"Resources in the result:", "Embedded resource · " + mcptest.NotesURI,
		"Shown to you only: its audience is the user, so the model was not sent it.",
		"Held back from the model (for you only): embedded resource " + mcptest.NotesURI, "Resource link · " + mcptest.LogoURI,
		"Warning: held back from the model (for the person only): embedded resource " + mcptest.NotesURI} {
		if !strings.Contains(got, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, got)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if body := string(r.Body); strings.Contains(body, "launch code") || strings.Contains(body, mcptest.NotesURI) {
			t.Errorf("request %d carries the user-only resource:\n%s", i+1, body)
		}
	}
	p, err := reqs[1].Parse()
	if err != nil {
		t.Fatal(err)
	}
	if res := p.ToolResults(); len(res) != 1 || !strings.Contains(res[0], "A *static* markdown resource") ||
		!strings.Contains(res[0], "[1 part of the result held back by the host: for the person only]") {
		t.Errorf("the result sent back: %q", res)
	}
	checkHeldInInspector(t, h, c)
	h.do(func() { test.Tap(findButton(c.win.Canvas(), "Attach")) }) // the first resource: the user-only notes
	h.settle()
	h.do(func() {
		var uris []string
		for _, r := range h.app.attachments.rows {
			uris = append(uris, r.att.URI)
		}
		if !strings.Contains(strings.Join(uris, " "), mcptest.NotesURI) {
			t.Errorf("after Attach in the conversation, attached: %v", uris)
		}
	})
}

// checkHeldInInspector opens the turn's inspector and looks for what was
// held back.
func checkHeldInInspector(t *testing.T, h *harness, c *chatView) {
	t.Helper()
	h.do(func() { c.inspect(1) })
	h.settle()
	var found bool
	h.do(func() {
		for _, ti := range c.inspectors {
			s := texts(ti.Content())
			found = found || strings.Contains(s, "Held back from the model, in the result of "+mcptest.DeliverTool)
		}
	})
	if !found {
		t.Error("the turn inspector does not say what was held back")
	}
}
