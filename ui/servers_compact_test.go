package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/testbin"
)

// Twenty servers fit the sidebar: every card but the one in use is
// compact (its title, state and accounts), and a click on a server's
// title browses it.
func TestTwentyServers(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	bin := testbin.Build(t, "internal/mcptest/mcptestd")
	for i := range 20 {
		h.extra = append(h.extra, config.ServerConfig{Name: fmt.Sprintf("s%02d", i), Source: "builtin",
			Command: bin, Args: []string{"--mode", "paged", "--resources", "3", "--stdio"}})
	}
	h.open()
	var full, compact float32
	h.do(func() {
		for _, c := range h.app.servers.cards {
			if c.sc.Name == hostcore.DemoServerName {
				full = c.root.MinSize().Height
				if c.compact || !c.source.Visible() {
					t.Error("the card in use is compact")
				}
			} else if c.sc.Name == "s07" {
				compact = c.root.MinSize().Height
				if !c.compact || c.source.Visible() || c.process.Visible() || c.caps.Visible() {
					t.Error("a card not in use shows how it is reached, its process or capabilities")
				}
			}
		}
	})
	if compact == 0 || compact >= full*0.75 {
		t.Errorf("a compact card is %.0f high, the full one %.0f", compact, full)
	}
	h.do(func() { test.Tap(h.card("s07").title) })
	h.settle()
	h.do(func() {
		if c := h.app.sh.conn; c == nil || c.Server.Name != "s07" {
			t.Fatalf("a click on s07's title browses %v", c)
		}
		if h.card("s07").compact || !h.card(hostcore.DemoServerName).compact {
			t.Error("the cards did not follow the server in use")
		}
	})
}

// Before the first frame, the sidebar has cards only for the servers the
// window's height has room for; the others come once it is on the screen,
// compact, in the host's order.
func TestCardsBeyondTheWindowWaitForTheFirstFrame(t *testing.T) {
	var start func()
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir(), afterFirstFrame: func(f func()) { start = f }}
	bin := testbin.Build(t, "internal/mcptest/mcptestd")
	for i := range 20 {
		h.extra = append(h.extra, config.ServerConfig{Name: fmt.Sprintf("s%02d", i), Source: "builtin",
			Command: bin, Args: []string{"--mode", "paged", "--resources", "3", "--stdio"}})
	}
	h.open()
	all := len(h.host.Servers())
	var before int
	h.do(func() { before = len(h.app.servers.cards) })
	if before == 0 || before >= all {
		t.Fatalf("before the first frame the sidebar has %d cards of %d, want those that fit", before, all)
	}
	h.do(start)
	h.settle()
	h.do(func() {
		cards := h.app.servers.cards
		if len(cards) != all {
			t.Fatalf("after the first frame the sidebar has %d cards, want %d", len(cards), all)
		}
		for i, sc := range builtinFirst(h.host.Servers()) {
			if cards[i].sc.Name != sc.Name {
				t.Errorf("card %d is %s, want %s", i, cards[i].sc.Name, sc.Name)
			}
		}
		if last := cards[all-1]; !last.compact || last.root == nil {
			t.Errorf("the last card (%s) is not built compact", last.sc.Name)
		}
	})
}
