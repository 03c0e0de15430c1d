package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/threengram"
)

func threengramIDs(cs *mcp.ClientSession) ([]string, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "", "limit": 20}})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out threengram.SearchOutput
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range out.Results {
		ids = append(ids, r.ID)
	}
	return ids, nil
}

// countSent counts the requests of method the connection sent.
func countSent(c *hostcore.Conn, method string) int {
	n := 0
	for _, m := range c.Tap().Messages() {
		var env struct{ Method string }
		if m.Dir == wire.Sent && json.Unmarshal(m.Raw, &env) == nil && env.Method == method {
			n++
		}
	}
	return n
}

func TestReadThreengramBothTransports(t *testing.T) {
	httpSC, _ := threengramHTTP(t)
	for _, sc := range []config.ServerConfig{threengramStdio(t), httpSC} {
		t.Run(sc.Name, func(t *testing.T) {
			h := newHost(t, nil)
			c := conn(t, h, sc, "acme")
			id := someIDs(t, c)[0]
			uri := threengram.MemoryURI(id)
			res, err := c.ReadServer(context.Background(), uri)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" || res.Contents[0].IsBlob {
				t.Fatalf("contents = %+v", res.Contents)
			}
			if res.Hints.TTL != 24*time.Hour || res.Hints.Scope != "private" {
				t.Errorf("hints = %+v; want 24h private", res.Hints)
			}
			if res.ProtocolVersion == "" || res.Elapsed <= 0 {
				t.Errorf("protocolVersion %q, elapsed %v", res.ProtocolVersion, res.Elapsed)
			}
			if !strings.Contains(string(res.Raw.Request), `"resources/read"`) || !strings.Contains(string(res.Raw.Response), `"ttlMs":86400000`) {
				t.Errorf("raw exchange:\n%s\n%s", res.Raw.Request, res.Raw.Response)
			}
			// go-sdk's own cache is off: a second read reaches the server.
			if _, err := c.ReadServer(context.Background(), uri); err != nil {
				t.Fatal(err)
			}
			if n := countSent(c, "resources/read"); n != 2 {
				t.Errorf("two reads sent %d resources/read requests; want 2 (go-sdk must not cache)", n)
			}
		})
	}
}

func TestReadNotFoundIsTyped(t *testing.T) {
	httpSC, _ := threengramHTTP(t)
	for _, sc := range []config.ServerConfig{threengramStdio(t), httpSC} {
		t.Run(sc.Name, func(t *testing.T) {
			h := newHost(t, nil)
			acme, globex := conn(t, h, sc, "acme"), conn(t, h, sc, "globex")
			foreign := threengram.MemoryURI(someIDs(t, globex)[0])
			for _, uri := range []string{foreign, threengram.MemoryURI("mmissing")} {
				_, err := acme.ReadServer(context.Background(), uri)
				var he *fault.Error
				if !errors.Is(err, fault.ErrNotFound) || !errors.As(err, &he) || he.Code != -32602 || he.URI != uri {
					t.Errorf("read %s = %v; want NotFound with code -32602", uri, err)
				}
			}
		})
	}
}

func TestHTTPUnauthorized(t *testing.T) {
	sc, _ := threengramHTTP(t)
	sc.Accounts = []config.Account{{Name: "nobody", Headers: map[string]string{"Authorization": "Bearer tg_wrong"}}}
	h := newHost(t, nil)
	_, err := conn(t, h, sc, "nobody").ReadServer(context.Background(), threengram.MemoryURI("m1"))
	if !errors.Is(err, fault.ErrUnauthorized) {
		t.Fatalf("read with a bad token = %v; want Unauthorized", err)
	}
}

func TestListTemplatesAndEmptyResources(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, threengramMem(t), "acme")
	ctx := context.Background()
	var tmpls []hostcore.Template
	for tm, err := range c.Templates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tmpls = append(tmpls, tm)
	}
	if len(tmpls) != 1 || tmpls[0].URITemplate != threengram.MemoryTemplate {
		t.Fatalf("templates = %+v", tmpls)
	}
	if p := tmpls[0].Annotations.Priority; p == nil || *p != 0.7 {
		t.Errorf("template priority = %v; want 0.7", p)
	}
	pages := 0
	for _, err := range c.Resources(ctx, func(hostcore.ListProgress) { pages++ }) {
		if err != nil {
			t.Fatal(err)
		}
		t.Error("threengram listed a resource")
	}
	if pages != 1 {
		t.Errorf("pages = %d; want 1", pages)
	}
}

func TestCompleteScopedAndMemoized(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, threengramMem(t), "acme")
	ctx := context.Background()
	id := someIDs(t, c)[0]
	got, err := c.Complete(ctx, threengram.MemoryTemplate, "id", id[:3], nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range got.Values {
		found = found || v == id
	}
	if !found {
		t.Errorf("completion of %s missed %s: %v", id[:3], id, got.Values)
	}
	before := countSent(c, "completion/complete")
	if _, err := c.Complete(ctx, threengram.MemoryTemplate, "id", id[:3], nil); err != nil {
		t.Fatal(err)
	}
	if after := countSent(c, "completion/complete"); after != before {
		t.Errorf("a repeated completion reached the server (%d -> %d requests)", before, after)
	}
}

func TestReconnectAfterProcessDies(t *testing.T) {
	h := newHost(t, nil)
	sc := threengramStdio(t)
	c := conn(t, h, sc, "acme")
	ctx := context.Background()
	uri := threengram.MemoryURI(someIDs(t, c)[0])
	if err := syscall.Kill(c.Info().PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for c.Info().State == hostcore.StateConnected && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if info := c.Info(); info.State != hostcore.StateDisconnected || !errors.Is(info.LastError, fault.ErrTransport) {
		t.Fatalf("after the server died: state %s, last error %v; want disconnected by a transport error", info.State, info.LastError)
	}
	if _, err := c.ReadServer(ctx, uri); err != nil {
		t.Fatalf("read after the server died: %v; want a reconnect", err)
	}
	if info := c.Info(); info.Connects != 2 || info.State != hostcore.StateConnected {
		t.Errorf("info = %+v; want a second connect", info)
	}
}
