package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/wire"
)

// The console shows the whole JSON-RPC history of the connection in use,
// each response with its method and time, filters it (and says so when
// the filter hides everything), copies a message, shows the server's
// stderr and exports the exchange.
func TestConsole(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	h.do(h.app.ShowConsole)
	c := h.app.console
	if c.win == nil || c.conn != h.app.sh.conn {
		t.Fatal("the console did not open on the connection in use")
	}
	var read *wire.RPCEntry
	for i, e := range c.entries {
		if e.Kind == wire.KindResponse && e.Method == "resources/read" {
			read = &c.entries[i]
		}
	}
	if read == nil {
		t.Fatalf("the console's history holds no response to resources/read: %d messages", len(c.entries))
	}
	if line := entryLine(*read); !strings.Contains(line, "← response") || !strings.Contains(line, "resources/read ·") {
		t.Errorf("the read's response shows as %q; want its direction, method and time", line)
	}
	if len(c.shown) != len(c.entries) || !strings.HasPrefix(c.count.Text, "") {
		t.Errorf("with no filter %d of %d messages show", len(c.shown), len(c.entries))
	}

	h.do(func() { h.app.ConsoleFilter(id) }) // the suggestions' lines read other memories too
	if len(c.shown) == 0 || len(c.shown) == len(c.entries) {
		t.Errorf("the filter %s shows %d of %d messages", id, len(c.shown), len(c.entries))
	}
	if err := h.try(func() error { return h.app.ConsoleSelect("resources/read") }); err != nil {
		t.Fatal(err)
	}
	if shown, _ := c.detail.Text(); !strings.Contains(shown, id) || c.copyOne.Disabled() {
		t.Errorf("the chosen message shows %q; want the read of %s, and Copy on", shown, id)
	}
	h.do(c.copySelected)
	if got := h.fa.Clipboard().Content(); !strings.Contains(got, id) || !strings.Contains(got, `"jsonrpc"`) {
		t.Errorf("Copy put %q on the clipboard", got)
	}

	h.do(func() { h.app.ConsoleFilter("no-such-method-anywhere") })
	if len(c.shown) != 0 || !strings.Contains(c.count.Text, "No message matches") || !strings.Contains(c.count.Text, "hides all") {
		t.Errorf("a filter that hides everything says %q", c.count.Text)
	}

	if c.stderr.Text == "" {
		t.Error("the server log says nothing, not even that the server wrote nothing")
	}
	var buf bytes.Buffer
	if err := h.try(func() error { return c.export(&buf) }); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Server   string
		Messages []json.RawMessage
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil || doc.Server != hostcore.DemoServerName || len(doc.Messages) != len(c.entries) {
		t.Errorf("export = %s with %d messages (%v); want the demo's %d", doc.Server, len(doc.Messages), err, len(c.entries))
	}
}

// Down in the console's filter moves into the history.
func TestConsoleDownFromFilter(t *testing.T) {
	h := newHarness(t)
	h.do(h.app.ShowConsole)
	c := h.app.console
	h.do(func() { c.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) })
	if c.selected != 0 || c.win.Canvas().Focused() != c.list {
		t.Errorf("after Down the console has message %d chosen and %T focused; want the first, in the list", c.selected, c.win.Canvas().Focused())
	}
}
