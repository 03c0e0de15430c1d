package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/modeltest"
)

// waitTurn waits until the conversation window's turn has ended.
func (h *harness) waitTurn(c *chatView) {
	h.t.Helper()
	h.waitFor("the turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	h.settle()
}

// attachReadme attaches the era server's readme, a resource whose body
// its touch tool changes.
func (h *harness) attachReadme() {
	h.t.Helper()
	if err := h.try(func() error { return h.app.SelectServer("era", "") }); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource(mcptest.ReadmeURI) }); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach)
	h.settle()
}

// sentSystem is the system prompt of the scripted model's request i.
func sentSystem(t *testing.T, srv *modeltest.Server, i int) string {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) <= i {
		t.Fatalf("the model got %d requests, want at least %d", len(reqs), i+1)
	}
	p, err := reqs[i].Parse()
	if err != nil {
		t.Fatal(err)
	}
	return p.System
}

// The context preview and its Copy show the system prompt byte for byte
// as the model then receives it, turn after turn: the preamble, then the
// context (a memory of the real threengram server and the era server's
// readme), packed under the budget typed beside the preview.
func TestPreviewIsWhatTheModelReceives(t *testing.T) {
	h, c, srv, _ := chatHarness(t, modeltest.Say(modeltest.Reply{Text: "one"}), modeltest.Say(modeltest.Reply{Text: "two"}))
	p := h.app.attachments
	h.attachReadme()
	for i, budget := range []string{"8000", "150"} {
		h.do(func() { p.budget.SetText(budget) })
		h.settle()
		var shown string
		h.do(func() { shown = p.preview.doc })
		if !strings.HasPrefix(shown, chat.Preamble+"\n") {
			t.Errorf("the preview does not open with the preamble:\n%s", shown)
		}
		h.do(func() { test.Tap(p.preview.copy) })
		copied := h.fa.Clipboard().Content()
		h.sendChat(c, "turn "+budget)
		h.waitTurn(c)
		if sent := sentSystem(t, srv, i); copied != sent || shown != sent {
			t.Errorf("turn %d sent:\n%s\n--- the preview showed:\n%s\n--- Copy gave:\n%s", i+1, sent, shown, copied)
		}
	}
}

// menuItem finds the item labelled label in the window's menu.
func menuItem(t *testing.T, h *harness, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range h.app.menu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no %s › %q in the menu", menu, label)
	return nil
}

// Conversation › "Open the chat with the model…" opens the chat; "Show
// what the model is sent…" shows the system prompt itself, and no item
// says it shows the context while it opens the chat.
func TestConversationMenuSaysWhatItOpens(t *testing.T) {
	h, c, _, _ := chatHarness(t)
	h.do(func() { c.win.Close() })
	h.settle()
	for _, m := range h.app.menu().Items {
		for _, it := range m.Items {
			if strings.Contains(it.Label, "show the context") {
				t.Errorf("%s › %q opens the chat, which does not show the context", m.Label, it.Label)
			}
		}
	}
	open := menuItem(t, h, "Conversation", "Open the chat with the model…")
	h.do(open.Action)
	h.settle()
	if c.win == nil {
		t.Error("Open the chat with the model… opened no conversation window")
	}
	show := menuItem(t, h, "Conversation", "Show what the model is sent…")
	h.do(show.Action)
	var doc, got string
	h.do(func() {
		doc = h.app.attachments.preview.doc
		got = texts(h.app.Window().Canvas().Overlays().Top())
	})
	if !strings.Contains(got, softWrap(doc, dialogColumns)) || !strings.Contains(doc, chat.Preamble) {
		t.Errorf("Show what the model is sent… shows:\n%s\nwant the system prompt:\n%s", got, doc)
	}
}
