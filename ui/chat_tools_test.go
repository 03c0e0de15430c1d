package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
)

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
	if err := h.host.AddServer(ctx, hostcore.ServerConfig{Name: "broken", Command: "/nonexistent/attache-no-such-server"}); err != nil {
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
