package ui

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// An approval asked for once the app's window is closed (a turn that
// reaches a tool call as the window closes) shows no dialog, and its turn
// ends: nothing is left waiting for a dialog that will never be shown.
func TestApprovalAfterCloseLeavesNoGoroutine(t *testing.T) {
	h, c, _, _ := chatHarness(t)
	h.do(h.app.Close)
	before := approvalWaiters()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the close stopped the turn
	a, _ := c.approve(ctx, consent.ToolRequest{Server: "threengram", Tool: toolcall.Tool{Name: "get_memories"}})
	if a != consent.ApproveDeny {
		t.Errorf("approve after the close = %v, want a denial", a)
	}
	deadline := time.Now().Add(20 * time.Second)
	for approvalWaiters() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d approval goroutines still wait for a dialog after the window closed, %d before", approvalWaiters(), before)
		}
		runtime.Gosched()
	}
}

// approvalWaiters counts the goroutines running in chatView.approve's
// closures.
func approvalWaiters() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	n := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("ui.(*chatView).approve.func")) {
			n++
		}
	}
	return n
}

// toolsRow is the conversation window's "Tools of" row: each switch's
// label, with " [off]" when it is disabled.
func (h *harness) toolsRow(c *chatView) []string {
	var row []string
	h.do(func() {
		for _, o := range c.tools.Objects {
			if ch, ok := o.(*check); ok {
				s := ch.Text
				if ch.Disabled() {
					s += " [off]"
				}
				row = append(row, s)
			}
		}
	})
	return row
}

// The tools row follows the servers as they are (issue 21.8): a server
// added while the window is open shows at once; one whose connect fails
// says so, its switch disabled; one that declares no tools says that;
// one removed goes.
func TestToolsRowFollowsTheServers(t *testing.T) {
	h := newHarness(t)
	c := h.openChat()
	ctx := context.Background()
	has := func(prefix string) func() bool {
		return func() bool {
			return slices.ContainsFunc(h.toolsRow(c), func(s string) bool { return strings.HasPrefix(s, prefix) })
		}
	}
	if err := h.host.AddServer(ctx, config.ServerConfig{Name: "broken", Command: "/nonexistent/attache-no-such-server"}); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the added server in the row", has("broken"))
	conn, err := h.host.Conn("broken", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Capabilities(ctx); err == nil { // a connect, as a turn's would be
		t.Fatal("a server with no program connected")
	}
	h.waitFor("the broken server marked, its switch disabled", has("broken (not connected: "))
	if row := h.toolsRow(c); !slices.ContainsFunc(row, func(s string) bool {
		return strings.HasPrefix(s, "broken (not connected: ") && strings.HasSuffix(s, " [off]")
	}) {
		t.Errorf("row %q: the broken server's switch is enabled", row)
	}
	for _, s := range h.toolsRow(c) {
		if reason, ok := strings.CutPrefix(s, "broken (not connected: "); ok && !strings.HasPrefix(reason, "the server's command names") {
			t.Errorf("row entry %q: want the reason as a sentence, \"the server's command names …\", with no kind heading", s)
		}
	}
	paged, err := h.host.Conn("paged", "") // resources only
	if err != nil {
		t.Fatal(err)
	}
	if _, err := paged.Capabilities(ctx); err != nil {
		t.Fatal(err)
	}
	h.waitFor("a server without tools marked", has("paged (no tools) [off]"))
	if err := h.host.RemoveServer(ctx, "broken"); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the removed server gone", func() bool { return !has("broken")() })
	h.settle()
	for _, s := range h.toolsRow(c) {
		if strings.HasPrefix(s, hostcore.DemoServerName+" ") {
			t.Errorf("a server that works is marked: %q", s)
		}
	}
	t.Log(fmt.Sprint(h.toolsRow(c)))
}
