package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/internal/mcptest"
)

// Subscriptions for any resource, in the inspector and the Subscriptions
// view, against real servers: server-everything (2025-11-25,
// resources/subscribe; its toggle-subscriber-updates tool starts the
// updates, at once and then every 5 seconds) and mcptestd's 2026-07-28
// mode (subscriptions/listen; its touch tool sends an update).

// everythingDoc is a static text resource of server-everything.
const everythingDoc = "demo://resource/static/document/features.md"

// pressSubscribe presses the inspector's Subscribe (or Unsubscribe) and
// waits for the host's record to say want.
func (h *harness) pressSubscribe(want bool) {
	h.t.Helper()
	w := h.app.inspector.watch
	h.do(func() {
		if w.subscribe.Hidden || w.subscribe.Disabled() {
			h.t.Fatalf("the inspector offers no %s: %q", w.subscribe.Text, w.note.Text)
		}
		w.subscribe.OnTapped()
	})
	h.settle()
	h.waitFor("the subscription to follow the button", func() bool {
		var ok bool
		h.do(func() {
			sub, held := h.host.Subscriptions().Find(h.app.inspector.req.conn, h.app.inspector.req.uri)
			ok = held && sub.Yours == want || !held && !want
			// The button follows the host's record once the call's
			// delivery has run on this goroutine.
			label := "Subscribe"
			if want {
				label = "Unsubscribe"
			}
			ok = ok && w.subscribe.Text == label
		})
		return ok
	})
}

// staleShown reports whether the inspector says its body is stale.
func (h *harness) staleShown() bool {
	var ok bool
	h.do(func() {
		w := h.app.inspector.watch
		ok = !w.bar.Hidden && strings.HasPrefix(w.stale.Text, "Stale:") && !w.reread.Hidden
	})
	return ok
}

// subscriptionRow is the Subscriptions view's row of uri, as its cells'
// texts, or nil.
func (h *harness) subscriptionRow(uri string) []string {
	var row []string
	h.do(func() {
		v := h.app.subscriptions
		for _, sub := range v.subs {
			if sub.URI == uri {
				for col := range subscriptionColumns[:len(subscriptionColumns)-1] {
					row = append(row, subscriptionCell(sub, col))
				}
			}
		}
	})
	return row
}

// editAndSend opens the console's editor on the chosen request, replaces
// its text with text, and presses Send (a destructive call then waits for
// confirmRun).
func (h *harness) editAndSend(text string) {
	h.t.Helper()
	c := h.app.console
	h.do(func() {
		c.editChosen()
		if c.editor == nil {
			h.t.Fatal("Edit and resend opened no editor")
		}
		c.editor.text.SetText(text)
		if c.editor.sendBtn.Disabled() {
			h.t.Fatalf("the editor will not send %s: %s", text, c.editor.verdict.Text)
		}
		c.editor.send()
	})
}

// confirmRun waits for the console's confirmation of a destructive tool
// call, presses Run it, and waits for the call to land.
func (h *harness) confirmRun() {
	h.t.Helper()
	c := h.app.console
	h.waitFor("the confirmation of a destructive call", func() bool {
		var b *button
		h.do(func() {
			if c.confirming != nil {
				b = findButton(c.win.Canvas(), "Run it")
			}
		})
		if b != nil {
			h.do(b.OnTapped)
		}
		return b != nil
	})
	h.settle()
}

// A 2025-11-25 subscription from the inspector: Subscribe subscribes
// (resources/subscribe, yours), the Subscriptions view lists it with its
// server, account and count; toggle-subscriber-updates, sent from the
// console on the app's own connection, makes the server send updates, and
// the open body says it is stale, the view too; Re-read reads it again and
// Diff compares; Unsubscribe gives it back and the view empties.
func TestInspectorSubscribeGoesStale(t *testing.T) {
	h := newHarness(t)
	h.readFrom(everythingServer(t), everythingDoc)
	w := h.app.inspector.watch
	h.do(func() {
		if w.subscribe.Hidden || w.subscribe.Text != "Subscribe" {
			t.Fatalf("a server that declares resources.subscribe: the inspector shows %q (hidden %v)", w.subscribe.Text, w.subscribe.Hidden)
		}
	})
	h.pressSubscribe(true)
	h.do(func() {
		if w.subscribe.Text != "Unsubscribe" || !strings.Contains(w.note.Text, "resources/subscribe, held by you") {
			t.Errorf("subscribed: the button says %q, the note %q", w.subscribe.Text, w.note.Text)
		}
	})
	h.shortcut(shortcutSubscriptions)
	if row := h.subscriptionRow(everythingDoc); len(row) == 0 || row[1] != "everything" || row[3] != "resources/subscribe" ||
		row[4] != "you" || row[6] != "0" || row[7] != "none yet" || row[8] != "current" {
		t.Fatalf("the Subscriptions view's row: %q", row)
	}

	h.do(h.app.ShowConsole)
	h.chooseRequest("resources/read")
	h.editAndSend(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"toggle-subscriber-updates","arguments":{}}}`)
	h.settle()
	h.waitFor("the open body to go stale", h.staleShown)
	h.waitFor("the view to count the update", func() bool {
		row := h.subscriptionRow(everythingDoc)
		return len(row) > 8 && row[6] != "0" && row[7] != "none yet" && row[8] == "stale: updated since read"
	})
	h.do(func() {
		if !strings.Contains(h.app.subscriptions.summary.Text, "1 open body stale") {
			t.Errorf("the view's summary: %q", h.app.subscriptions.summary.Text)
		}
		if d := w.diff; d.Hidden {
			t.Error("a stale body offers no Diff")
		}
	})

	h.do(h.app.console.resendChosen) // the toggle again: the updates stop
	h.settle()
	if e := h.chosenEntry(); e.Method != "tools/call" || !strings.Contains(string(e.Raw), "toggle-subscriber-updates") {
		t.Fatalf("after resending the toggle the console chose %s %s", e.Method, e.Raw)
	}
	h.do(w.reread.OnTapped)
	h.settle()
	h.waitFor("the re-read body to be current", func() bool {
		var ok bool
		h.do(func() { ok = strings.HasPrefix(w.stale.Text, "Current:") && w.reread.Hidden && !w.diff.Hidden })
		return ok
	})
	h.do(w.diff.OnTapped)
	h.do(func() {
		top := h.app.Window().Canvas().Overlays().Top()
		if top == nil || !strings.Contains(texts(top), "did not change") {
			t.Errorf("Diff of a static document read twice shows %q", texts(top))
		}
	})

	h.pressSubscribe(false)
	h.waitFor("the view to let it go", func() bool { return h.subscriptionRow(everythingDoc) == nil })
	h.do(func() {
		if w.subscribe.Text != "Subscribe" || !strings.HasPrefix(h.app.subscriptions.summary.Text, "No subscriptions") {
			t.Errorf("unsubscribed: the button says %q, the view %q", w.subscribe.Text, h.app.subscriptions.summary.Text)
		}
	})
}

// A 2026-07-28 subscription from the inspector is a subscriptions/listen;
// the server's touch, resent from the console, makes the body stale.
func TestInspectorSubscribe2026(t *testing.T) {
	h := newHarness(t)
	h.readFrom(eraServer(t), mcptest.ReadmeURI)
	h.pressSubscribe(true)
	w := h.app.inspector.watch
	h.do(func() {
		if !strings.Contains(w.note.Text, "subscriptions/listen, held by you") {
			t.Errorf("the 2026-07-28 subscription's note: %q", w.note.Text)
		}
	})
	h.do(h.app.ShowConsole)
	h.chooseRequest("resources/read")
	h.editAndSend(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"touch","arguments":{"uri":"` + mcptest.ReadmeURI + `"}}}`)
	h.confirmRun() // touch has no annotations: destructive, by the protocol's default
	// The listen stream may open after Subscribe returns: touch until the
	// update comes.
	h.waitFor("the open body to go stale", func() bool {
		if h.staleShown() {
			return true
		}
		h.do(h.app.console.resendChosen)
		h.confirmRun()
		return false
	})
	h.do(func() {
		if imp := w.stale.Importance; imp != widget.WarningImportance {
			t.Errorf("the stale line's importance is %v", imp)
		}
	})
	sub, ok := h.host.Subscriptions().Find(h.app.inspector.req.conn, mcptest.ReadmeURI)
	if !ok || sub.Updates == 0 || !sub.Stale || sub.Method != "subscriptions/listen" {
		t.Errorf("the host's record: %+v", sub)
	}
}

// A server that does not declare resources.subscribe gets no Subscribe,
// and the inspector says why.
func TestInspectorSubscribeNotOffered(t *testing.T) {
	h := newHarness(t)
	h.readFrom(pagedServer(t, "paged", 2000), mcptest.PagedURI(0))
	w := h.app.inspector.watch
	h.do(func() {
		if !w.subscribe.Hidden || w.bar.Hidden || !strings.Contains(w.note.Text, "does not declare resources.subscribe") {
			t.Errorf("not offered: the button is shown %v, the note %q", !w.subscribe.Hidden, w.note.Text)
		}
	})
}
