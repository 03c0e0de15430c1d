package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/mcptest"
)

// The console acts on the chosen message, against the reference server:
// Resend, Edit and resend, Pin; and pages a list by hand on mcptestd's
// paged mode.

// openConsoleOn reads the memory id in the inspector, opens the console
// and chooses the read's request.
func (h *harness) openConsoleOn(id string) *console {
	h.t.Helper()
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	h.do(h.app.ShowConsole)
	c := h.app.console
	h.chooseRequest("resources/read")
	return c
}

// chooseRequest chooses, in the open console, the last request of method
// the host sent.
func (h *harness) chooseRequest(method string) {
	h.t.Helper()
	c := h.app.console
	h.do(func() {
		c.filter.SetText("")
		for i := len(c.shown) - 1; i >= 0; i-- {
			if e := c.entries[c.shown[i]]; e.Kind == wire.KindRequest && e.Dir == wire.Sent && e.Method == method {
				c.list.Select(i)
				return
			}
		}
		h.t.Fatalf("the console shows no %s request", method)
	})
}

// chosenEntry is the console's chosen message.
func (h *harness) chosenEntry() wire.RPCEntry {
	h.t.Helper()
	var e *wire.RPCEntry
	h.do(func() { e = h.app.console.chosen() })
	if e == nil {
		h.t.Fatal("the console has no message chosen")
	}
	return *e
}

// requestURI is the params.uri of a request's raw message.
func requestURI(t *testing.T, e wire.RPCEntry) string {
	t.Helper()
	var msg struct {
		Params struct{ URI string }
	}
	if err := json.Unmarshal(e.Raw, &msg); err != nil {
		t.Fatalf("the message %s: %v", e.Raw, err)
	}
	return msg.Params.URI
}

// Resend sends the chosen request again with the session's next id, and
// the console chooses it in the history, answered, and says what it did.
func TestConsoleResend(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	c := h.openConsoleOn(id)
	was := h.chosenEntry()
	h.do(func() {
		if c.resend.Disabled() || c.edit.Disabled() {
			t.Fatal("a request the host sent offers no Resend or Edit")
		}
	})
	h.do(c.resendChosen)
	h.settle()
	got := h.chosenEntry()
	wasID, _ := strconv.Atoi(was.ID)
	gotID, _ := strconv.Atoi(got.ID)
	if got.Kind != wire.KindRequest || got.Method != "resources/read" || gotID <= wasID || got.Seq <= was.Seq {
		t.Fatalf("after Resend the console chose %s %s #%s (seq %d); want a new resources/read after #%s", got.Kind, got.Method, got.ID, got.Seq, was.ID)
	}
	if requestURI(t, got) != requestURI(t, was) {
		t.Errorf("the resent request reads %s; want %s", requestURI(t, got), requestURI(t, was))
	}
	answered := false
	h.do(func() {
		for _, e := range c.entries {
			answered = answered || e.Kind == wire.KindResponse && e.ID == got.ID
		}
		if want := "Sent resources/read as #" + got.ID + " (was #" + was.ID + ")"; !strings.HasPrefix(c.note.Text, want) {
			t.Errorf("the console says %q; want it to start %q", c.note.Text, want)
		}
	})
	if !answered {
		t.Errorf("the console shows no response to #%s", got.ID)
	}
}

// Edit and resend opens the request prefilled; an edited params goes out
// as edited, with a new id; what the host does not send (a response, a
// notification, a server's request, an unknown parameter) is refused
// before anything is sent, and says why.
func TestConsoleEditAndResend(t *testing.T) {
	h := newHarness(t)
	ids := h.memoryIDs("acme", "m", 2)
	c := h.openConsoleOn(ids[0])
	was := h.chosenEntry()
	h.do(c.editChosen)
	ed := c.editor
	h.do(func() {
		if ed == nil || !strings.Contains(ed.text.Text, requestURI(t, was)) || ed.sendBtn.Disabled() {
			t.Fatalf("the editor opened on %q", ed.text.Text)
		}
	})
	refused := map[string]string{
		`{"jsonrpc":"2.0","id":3,"result":{}}`:                                               "never a response",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                             "notification",
		`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}`:             "a server sends",
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x","extra":1}}`:  `no parameter "extra"`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x"}`:             "not a JSON object",
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":1}}`: "must be a JSON object",
	}
	sent := len(h.app.sh.conn.Tap().Messages())
	for text, why := range refused {
		h.do(func() {
			ed.text.SetText(text)
			if !ed.sendBtn.Disabled() || !strings.Contains(ed.verdict.Text, why) {
				t.Errorf("%s: Send is on %v, the editor says %q; want it off, saying %q", text, !ed.sendBtn.Disabled(), ed.verdict.Text, why)
			}
			ed.send()
		})
	}
	if n := len(h.app.sh.conn.Tap().Messages()); n != sent {
		t.Errorf("refused requests put %d messages on the wire", n-sent)
	}

	edited := strings.Replace(prettyJSON(was.Raw), requestURI(t, was), "threengram://memory/"+ids[1], 1)
	h.do(func() {
		ed.text.SetText(edited)
		ed.send()
	})
	h.settle()
	got := h.chosenEntry()
	if got.Method != "resources/read" || got.ID == was.ID || requestURI(t, got) != "threengram://memory/"+ids[1] {
		t.Fatalf("after Edit and resend the console chose %s #%s of %s; want a new read of %s", got.Method, got.ID, requestURI(t, got), ids[1])
	}
	var reply string
	h.do(func() {
		for _, e := range c.entries {
			if e.Kind == wire.KindResponse && e.ID == got.ID {
				reply = string(e.Raw)
			}
		}
	})
	if !strings.Contains(reply, ids[1]) {
		t.Errorf("the edited request's response %q does not hold %s", reply, ids[1])
	}
}

// A response or a notification cannot be resent.
func TestConsoleResendOnlyRequests(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	c := h.openConsoleOn(id)
	h.do(func() {
		for i, e := range c.shown {
			if k := c.entries[e].Kind; k == wire.KindResponse {
				c.list.Select(i)
				if !c.resend.Disabled() || !c.edit.Disabled() || c.pin.Disabled() {
					t.Errorf("a response offers Resend %v, Edit %v; Pin %v", !c.resend.Disabled(), !c.edit.Disabled(), !c.pin.Disabled())
				}
				return
			}
		}
		t.Fatal("no response to choose")
	})
}

// Pin marks a message, Pinned only shows the pinned alone, Unpin lets it
// go again.
func TestConsolePin(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	c := h.openConsoleOn(id)
	was := h.chosenEntry()
	h.do(c.togglePin)
	h.do(func() { c.filter.SetText("") })
	if e := h.chosenEntry(); !e.Pinned || e.Seq != was.Seq {
		t.Fatalf("after Pin the console chose seq %d pinned %v; want seq %d pinned", e.Seq, e.Pinned, was.Seq)
	}
	h.do(func() {
		if c.pin.Text != "Unpin" || !strings.HasPrefix(entryLine(*c.chosen()), "pinned · ") || !strings.Contains(c.count.Text, ", 1 pinned") {
			t.Errorf("pinned: the button says %q, the line %q, the count %q", c.pin.Text, entryLine(*c.chosen()), c.count.Text)
		}
		c.pinnedOnly.SetChecked(true)
		if len(c.shown) != 1 || c.entries[c.shown[0]].Seq != was.Seq || !strings.HasPrefix(c.count.Text, "1 pinned of ") {
			t.Errorf("Pinned only shows %d messages, saying %q", len(c.shown), c.count.Text)
		}
		c.list.Select(0)
		c.togglePin()
		if len(c.shown) != 0 || !strings.Contains(c.count.Text, "No message is pinned") {
			t.Errorf("after Unpin, Pinned only shows %d, saying %q", len(c.shown), c.count.Text)
		}
	})
}

// The Pages tab asks for one page at a time: First page, then Next page at
// the last reply's nextCursor; every page shows the cursor it was asked
// with, its request's id and its nextCursor, and each request is in the
// history.
func TestConsolePages(t *testing.T) {
	h := newHarness(t)
	h.readFrom(pagedServer(t, "paged", 2000), mcptest.PagedURI(0))
	h.do(h.app.ShowConsole)
	p := h.app.console.pages
	h.do(func() { p.method.SetSelected("resources/list") })
	h.do(p.first.OnTapped)
	h.settle()
	h.do(p.next.OnTapped)
	h.settle()
	var pages []hostcore.ListPage
	var lines []string
	h.do(func() {
		pages = p.pages
		for i, pg := range pages {
			lines = append(lines, pageLine(i, pg))
		}
	})
	if len(pages) != 2 || pages[0].Cursor != "" || pages[0].Next == "" || pages[1].Cursor != pages[0].Next || len(pages[1].Items) != 100 {
		t.Fatalf("the pages: %q", lines)
	}
	if !strings.Contains(lines[1], "cursor "+strconv.Quote(pages[0].Next)) || !strings.Contains(lines[1], "#"+pages[1].ID) {
		t.Errorf("the second page's line %q shows neither its cursor %q nor its id #%s", lines[1], pages[0].Next, pages[1].ID)
	}
	var asked []string
	entries, _ := h.app.sh.conn.Tap().History()
	for _, e := range entries {
		if e.Kind == wire.KindRequest && e.Method == "resources/list" && (e.ID == pages[0].ID || e.ID == pages[1].ID) {
			asked = append(asked, string(e.Raw))
		}
	}
	if len(asked) != 2 || !strings.Contains(asked[1], pages[0].Next) {
		t.Errorf("the history's requests of the two pages: %q", asked)
	}
}
