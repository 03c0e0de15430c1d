package hostcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
)

// TestToolCallMirrorsHeaders: a call of a tool with x-mcp-header arguments
// carries their Mcp-Param-* headers (SEP-2243), encoded, null ones left
// out; the definition comes from a listing made for the call, then, in a
// new host (a new attachectl process) with the same cache, from the cached
// listing, with no tools/list sent. A tool whose annotation is invalid is
// neither listed nor called.
func TestToolCallMirrorsHeaders(t *testing.T) {
	sc := ts2Servers(t)["http"]
	dir := t.TempDir()
	args := map[string]any{"region": " eu-west", "count": 3, "verbose": nil, "query": "x"}
	want := "mcp-param-count: 3\nmcp-param-region: =?base64?IGV1LXdlc3Q=?="
	cache := openCache(t, dir)
	for i := range 2 { // two hosts on one cache: two attachectl processes
		c := conn(t, newHost(t, &hostcore.HostOptions{Cache: cache}), sc, "")
		res, err := c.CallTool(context.Background(), "lookup", args)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != want {
			t.Errorf("run %d: the server saw\n%s\nwant\n%s", i, res.Text, want)
		}
		listed := strings.Contains(tapText(c), `"method":"tools/list"`)
		if listed != (i == 0) {
			t.Errorf("run %d: tools/list sent %v; want only in the first run (the second has the cached listing)", i, listed)
		}
	}

	c := conn(t, newHost(t, nil), sc, "")
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if tool.Name == "broken_header" {
			t.Errorf("the tool with an invalid x-mcp-header is listed")
		}
	}
	_, err = c.CallTool(context.Background(), "broken_header", map[string]any{"ratio": 0.5})
	if !errors.Is(err, hostcore.ErrProtocol) || !strings.Contains(err.Error(), "x-mcp-header") {
		t.Errorf("calling the invalid tool: %v; want it refused, naming the annotation", err)
	}
	for _, m := range c.Tap().Messages() {
		if m.Dir == hostcore.Sent && strings.Contains(string(m.Raw), `"tools/call"`) {
			t.Errorf("the invalid tool was called: %s", m.Raw)
		}
	}
}

// tapText is the whole tap of c, as text.
func tapText(c *hostcore.Conn) string {
	var b strings.Builder
	for _, m := range c.Tap().Messages() {
		b.Write(m.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestToolCallElicits: a tool call answered input_required is answered
// through the Elicitor and sent again; the rounds come with the result.
func TestToolCallElicits(t *testing.T) {
	for name, sc := range ts2Servers(t) {
		t.Run(name, func(t *testing.T) {
			var asked []hostcore.ElicitRequest
			c := conn(t, newHost(t, &hostcore.HostOptions{Elicit: acceptDefaults(&asked)}), sc, "")
			res, err := c.CallTool(context.Background(), "confirm", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != `accept {"confirmed":true}` || len(res.Rounds) != 1 || len(asked) != 1 || asked[0].Via != "calling the tool confirm of ts2" {
				t.Errorf("call %+v after %+v", res, asked)
			}
		})
	}
}
