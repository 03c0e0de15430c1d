package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/threengram"
)

// shownBody reads uri as the account browsed, in the inspector; attaches
// it, so the preview holds it; and opens the console on the read's
// response. It returns the body's text, which each screen then shows.
func (h *harness) shownBody(id string) string {
	h.t.Helper()
	uri := threengram.MemoryURI(id)
	h.do(func() { h.app.Read(uri) })
	h.settle()
	var body string
	h.do(func() { body, _ = h.app.inspector.bodyViewer().Text() })
	if body == "" || !strings.Contains(h.app.inspector.badge.Text, "private") {
		h.t.Fatalf("the inspector shows %q (%s) for %s", body, h.app.inspector.badge.Text, uri)
	}
	h.attachIDs(id)
	if !strings.Contains(h.app.attachments.preview.doc, bodyMark(body)) {
		h.t.Fatalf("the preview does not hold the body %q of %s:\n%s", body, uri, h.app.attachments.preview.doc)
	}
	c := h.app.console
	h.do(c.show)
	h.settle()
	h.do(func() {
		for i, j := range c.shown {
			if e := c.entries[j]; e.Dir == wire.Received && strings.Contains(string(e.Raw), uri) {
				c.list.Select(i)
			}
		}
	})
	if text, _ := c.detail.Text(); !strings.Contains(text, uri) {
		h.t.Fatalf("the console's detail shows %q, not the read of %s", text, uri)
	}
	return body
}

// assertNoBody fails if any of the inspector, the preview or the console's
// detail still shows body (or the record it came in), after what.
func (h *harness) assertNoBody(what, body string) {
	h.t.Helper()
	h.do(func() {
		in, p, c := h.app.inspector, h.app.attachments.preview, h.app.console
		if text, _ := in.bodyViewer().Text(); text != "" || strings.Contains(in.badge.Text, "private") {
			h.t.Errorf("after %s the inspector still shows %q under %q", what, text, in.badge.Text)
		}
		if strings.Contains(p.doc, bodyMark(body)) || strings.Contains(p.text.Text, bodyMark(body)[:40]) {
			h.t.Errorf("after %s the context preview still holds the body:\n%s", what, p.doc)
		}
		if text, _ := c.detail.Text(); text != "" {
			h.t.Errorf("after %s the console's detail still shows %q", what, text)
		}
		for _, e := range c.entries {
			if strings.Contains(string(e.Raw), bodyMark(body)) {
				h.t.Errorf("after %s the console still lists a message with the body: %s", what, e.Raw)
			}
		}
	})
}

// bodyMark is a memory's text, else the longest line of a body: what marks it out wherever it
// is shown (the preview wraps it, so the first 40 bytes of it there).
func bodyMark(s string) string {
	if _, content, ok := strings.Cut(s, `"content":"`); ok { // a memory, as JSON: its text
		return content[:min(len(content), 60)]
	}
	var mark string
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); len(line) > len(mark) {
			mark = line
		}
	}
	return mark
}

// Sign out drops the account's bodies from every screen: the inspector,
// the context preview and the console's detail, where the private body
// read as the signed-in account stayed before.
func TestSignOutDropsTheBodies(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	h.do(func() { test.Tap(r.action) })
	approve(t, h.waitForPage(demoOAuthKey), "acme")
	h.settle()
	h.do(func() { h.card(hostcore.DemoOAuthServerName).accounts.SetSelected("me") })
	h.settle()
	c, _ := h.host.Conn(hostcore.DemoOAuthServerName, "me")
	ids, err := c.Complete(context.Background(), threengram.MemoryTemplate, "id", "m", nil)
	if err != nil || len(ids.Values) == 0 {
		t.Fatalf("the signed-in account's memories: %v, %v", ids, err)
	}
	body := h.shownBody(ids.Values[0])

	h.do(func() { test.Tap(r.action) }) // Sign out
	h.settle()
	h.assertNoBody("Sign out", body)
	if in := h.app.inspector; !strings.Contains(in.badge.Text, "logged out") || in.modes.Visible() {
		t.Errorf("after Sign out the inspector says %q (Refresh shown %v)", in.badge.Text, in.modes.Visible())
	}
	rows := rowWidgets(h.app.attachments.list)
	if len(rows) != 1 || !strings.Contains(h.app.attachments.summary.Text, "1 unreadable") {
		t.Errorf("after Sign out the attachment's row is not said unreadable: %q", h.app.attachments.summary.Text)
	}
}

// Switching from acme to globex, as the demo does, drops acme's private
// body from the inspector; the console follows globex's record.
func TestAccountSwitchDropsThePrivateBody(t *testing.T) {
	h := newHarness(t)
	body := h.shownBody(h.memoryIDs("acme", "m", 1)[0])
	h.do(func() { h.card(hostcore.DemoServerName).accounts.SetSelected("globex") })
	h.settle()
	h.do(func() {
		in := h.app.inspector
		if text, _ := in.bodyViewer().Text(); text != "" || !strings.Contains(in.badge.Text, "another account") {
			t.Errorf("browsing globex, the inspector shows acme's body %q under %q", text, in.badge.Text)
		}
		if text, _ := h.app.console.detail.Text(); text != "" {
			t.Errorf("browsing globex, the console's detail shows %q", text)
		}
	})
	// The conversation holds acme's attachment: its preview is the
	// conversation's, not the browsed account's, and keeps it.
	if !strings.Contains(h.app.attachments.preview.doc, bodyMark(body)) {
		t.Error("switching the account browsed dropped the conversation's context")
	}
}

// Removing a server drops its bodies from every screen, whichever button
// (or command) removed it: the host tells the screens.
func TestRemovedServerDropsTheBodies(t *testing.T) {
	h := newHarness(t)
	sc := demoServer(t, h.dir)
	sc.Name, sc.Title, sc.Source = "mine", "mine", ""
	if err := h.try(func() error { return h.host.AddServer(context.Background(), sc) }); err != nil {
		t.Fatal(err)
	}
	h.do(h.app.servers.reload)
	h.do(func() { h.card("mine").accounts.SetSelected("acme") })
	h.settle()
	body := h.shownBody(h.memoryIDs("acme", "m", 1)[0])
	if err := h.host.RemoveServer(context.Background(), "mine"); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.assertNoBody("removing the server", body)
}
