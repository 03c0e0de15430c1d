package ui

import (
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/wire"
)

// sentCounts counts, per list method, the requests the connection sent.
func sentCounts(c *hostcore.Conn) map[string]int {
	n := map[string]int{}
	entries, _ := c.Tap().History()
	for _, e := range entries {
		if e.Kind == wire.KindRequest && e.Dir == wire.Sent {
			n[e.Method]++
		}
	}
	return n
}

// Each list request is sent once per connect (issue 21.8): browsing the
// reference server and opening every picker tab that lists (resources,
// templates, memories, tools) asks each list of the server once, however
// many views show it.
func TestEachListSentOncePerConnect(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer(hostcore.DemoServerName, "acme") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	for _, tab := range []PickerTab{TabResources, TabTemplates, TabByID, TabTools, TabTemplates, TabResources} {
		h.do(func() { h.app.ShowPicker(tab) })
		h.settle()
	}
	c, err := h.host.Conn(hostcore.DemoServerName, "acme")
	if err != nil {
		t.Fatal(err)
	}
	got := sentCounts(c)
	for _, m := range []string{"resources/list", "resources/templates/list", "tools/list"} {
		if got[m] != 1 {
			t.Errorf("%s was sent %d times on one connect; want once", m, got[m])
		}
	}
	if got["prompts/list"] > 1 {
		t.Errorf("prompts/list was sent %d times on one connect; want at most once", got["prompts/list"])
	}
}
