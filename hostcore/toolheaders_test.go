package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/wire"
)

// TestToolCallMirrorsHeaders: a call of a tool with x-mcp-header arguments
// carries their Mcp-Param-* headers (SEP-2243), encoded, null ones left
// out. A person's call has the definition from the consent gate's listing;
// one of the host's own calls, in a new host (a new attachectl process)
// with the same cache, from the cached listing, with no tools/list sent.
// A tool whose annotation is invalid is neither listed nor called.
func TestToolCallMirrorsHeaders(t *testing.T) {
	sc := ts2Servers(t)["http"]
	cache := openCache(t, t.TempDir())
	ctx := context.Background()
	args := map[string]any{"region": " eu-west", "count": 3, "verbose": nil, "query": "x"}
	want := "mcp-param-count: 3\nmcp-param-region: =?base64?IGV1LXdlc3Q=?="

	h := newHost(t, &hostcore.HostOptions{Cache: cache})
	c := conn(t, h, sc, "")
	if res, err := personCall(t, h, c, "lookup", args); err != nil || res.Text != want {
		t.Fatalf("a person's call: %+v, %v; want the server to see\n%s", res, err, want)
	}
	c2 := conn(t, newHost(t, &hostcore.HostOptions{Cache: cache}), sc, "")
	if res, err := hostcore.HostCallTool(ctx, c2, "lookup", args); err != nil || res.Text != want {
		t.Fatalf("the host's own call: %+v, %v; want the server to see\n%s", res, err, want)
	}
	if strings.Contains(tapText(c2), `"method":"tools/list"`) {
		t.Error("the host's call listed the tools again; want the cached listing used")
	}

	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if tool.Name == "broken_header" {
			t.Errorf("the tool with an invalid x-mcp-header is listed")
		}
	}
	if _, err := personCall(t, h, c, "broken_header", map[string]any{"ratio": 0.5}); !errors.Is(err, fault.ErrNotApproved) {
		t.Errorf("a person's call of the invalid tool: %v; want it refused by the gate (not listed)", err)
	}
	_, err = hostcore.HostCallTool(ctx, c2, "broken_header", map[string]any{"ratio": 0.5})
	if !errors.Is(err, fault.ErrProtocol) || !strings.Contains(err.Error(), "x-mcp-header") {
		t.Errorf("the host's call of the invalid tool: %v; want it refused, naming the annotation", err)
	}
	for _, conn := range []*hostcore.Conn{c, c2} {
		for _, m := range conn.Tap().Messages() {
			if m.Dir == wire.Sent && strings.Contains(string(m.Raw), `"broken_header"`) {
				t.Errorf("the invalid tool was called: %s", m.Raw)
			}
		}
	}
}

// personCall calls name on c as a person's command does, approved through
// the consent gate (--tools auto).
func personCall(t *testing.T, h *hostcore.Host, c *hostcore.Conn, name string, args map[string]any) (*hostcore.ToolResult, error) {
	t.Helper()
	scope, err := h.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	return c.CallTool(ctx, scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: name}, Arguments: b}))
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
			h := newHost(t, &hostcore.HostOptions{Elicit: acceptDefaults(&asked)})
			res, err := personCall(t, h, conn(t, h, sc, ""), "confirm", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != `accept {"confirmed":true}` || len(res.Rounds) != 1 || len(asked) != 1 || asked[0].Via != "calling the tool confirm of ts2" {
				t.Errorf("call %+v after %+v", res, asked)
			}
		})
	}
}
