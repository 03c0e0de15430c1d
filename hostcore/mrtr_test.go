package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/form"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/npmpeer"
)

// ts2Servers are the TypeScript SDK 2.x test server over both transports.
func ts2Servers(t *testing.T) map[string]config.ServerConfig {
	cmd, args := npmpeer.TS2Stdio(t)
	return map[string]config.ServerConfig{
		"stdio": {Name: "ts2", Command: cmd, Args: args},
		"http":  {Name: "ts2", URL: npmpeer.TS2(t)},
	}
}

// acceptDefaults is an Elicitor that accepts every form as offered.
func acceptDefaults(asked *[]hostcore.ElicitRequest) hostcore.Elicitor {
	return func(_ context.Context, req hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
		*asked = append(*asked, req)
		return hostcore.ElicitAnswer{Action: hostcore.ElicitAccept, Content: form.Defaults(req.Fields)}, nil
	}
}

// sentReads are the params of every resources/read the host sent, with
// their JSON-RPC ids, and the results it received.
func sentReads(t *testing.T, c *hostcore.Conn) (ids []string, states []json.RawMessage, results []json.RawMessage) {
	for _, m := range c.Tap().Messages() {
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				RequestState json.RawMessage `json:"requestState"`
			} `json:"params"`
			Result struct {
				RequestState json.RawMessage `json:"requestState"`
			} `json:"result"`
		}
		if err := json.Unmarshal(m.Raw, &env); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Dir == wire.Sent && env.Method == "resources/read":
			ids, states = append(ids, string(env.ID)), append(states, env.Params.RequestState)
		case m.Dir == wire.Received && env.Result.RequestState != nil:
			results = append(results, env.Result.RequestState)
		}
	}
	return ids, states, results
}

// TestReadEchoesRequestState: a read answered input_required with a
// requestState and no inputRequests (which go-sdk does not retry) is sent
// again with a new id and the state exactly as sent, reads the server's
// answer, and is not cached.
func TestReadEchoesRequestState(t *testing.T) {
	for name, sc := range ts2Servers(t) {
		t.Run(name, func(t *testing.T) {
			h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
			c := conn(t, h, sc, "")
			res, err := c.Read(context.Background(), "ts2://mrtr/state", hostcore.ReadUse)
			if err != nil {
				t.Fatal(err)
			}
			if res.Contents[0].Text != "state echoed" || res.Complete || len(res.Rounds) != 1 || !res.Rounds[0].State {
				t.Errorf("read %+v; want the echoed text after one round with a state", res)
			}
			if !strings.Contains(res.Cache.NotStored, "multi round-trip") {
				t.Errorf("not stored %q; want the multi round-trip reason", res.Cache.NotStored)
			}
			ids, states, results := sentReads(t, c)
			if len(ids) != 2 || ids[0] == ids[1] || states[0] != nil || len(results) != 1 || string(states[1]) != string(results[0]) {
				t.Errorf("ids %q, states sent %q, state received %q; want two ids, the state echoed as sent", ids, states, results)
			}
			again, err := c.Read(context.Background(), "ts2://mrtr/state", hostcore.ReadUse)
			if err != nil || again.Cache.Status == hostcore.CacheHit {
				t.Errorf("second read %+v, %v; want it asked of the server again", again.Cache, err)
			}
		})
	}
}

// TestReadElicitsAValue: a read that asks for a value (form elicitation,
// with a default) is answered through the Elicitor, with the default
// applied; a decline reaches the server as a decline.
func TestReadElicitsAValue(t *testing.T) {
	for name, sc := range ts2Servers(t) {
		t.Run(name, func(t *testing.T) {
			var asked []hostcore.ElicitRequest
			h := newHost(t, &hostcore.HostOptions{Elicit: acceptDefaults(&asked)})
			res, err := conn(t, h, sc, "").ReadServer(context.Background(), "ts2://mrtr/elicit")
			if err != nil {
				t.Fatal(err)
			}
			if res.Contents[0].Text != "hello Ada" || len(asked) != 1 || asked[0].Message != "Who is reading?" ||
				asked[0].Via != "reading ts2://mrtr/elicit" || len(asked[0].Fields) != 1 || asked[0].Fields[0].Default != "Ada" {
				t.Errorf("read %q after %+v; want the default accepted", res.Contents[0].Text, asked)
			}
			q := res.Rounds[0].Asked[0]
			if q.Key != "name" || q.Action != hostcore.ElicitAccept || q.Content["name"] != "Ada" {
				t.Errorf("round %+v; want what was asked and answered", res.Rounds[0])
			}

			decline := func(context.Context, hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
				return hostcore.ElicitAnswer{Action: hostcore.ElicitDecline}, nil
			}
			h = newHost(t, &hostcore.HostOptions{Elicit: decline})
			res, err = conn(t, h, sc, "").ReadServer(context.Background(), "ts2://mrtr/elicit")
			if err != nil || res.Contents[0].Text != "no name (decline)" {
				t.Errorf("declined read %+v, %v", res, err)
			}
		})
	}
}

// TestElicitationUndeclaredWithoutElicitor: a host with nobody to ask does
// not declare elicitation, and a server that asks anyway gets nothing.
func TestElicitationUndeclaredWithoutElicitor(t *testing.T) {
	sc := ts2Servers(t)["http"]
	for _, withElicitor := range []bool{false, true} {
		opts := &hostcore.HostOptions{}
		if withElicitor {
			var asked []hostcore.ElicitRequest
			opts.Elicit = acceptDefaults(&asked)
		}
		c := conn(t, newHost(t, opts), sc, "")
		_, err := c.ReadServer(context.Background(), "ts2://mrtr/elicit")
		if withElicitor != (err == nil) {
			t.Errorf("elicitor %v: read error %v", withElicitor, err)
		}
		declared := strings.Contains(string(c.Tap().Messages()[0].Raw), `"elicitation":{"form":{}}`)
		if declared != withElicitor {
			t.Errorf("elicitor %v: the capability declared %v in %s", withElicitor, declared, c.Tap().Messages()[0].Raw)
		}
	}
}

// askingServer is a go-sdk server whose resource asks for input: forever
// (an elicitation every round), with an empty set of requests, or for
// sampling.
func askingServer(t *testing.T) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1"}, nil)
	var rounds atomic.Int32
	ask := func(uri string, reqs mcp.InputRequestMap) {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			rounds.Add(1)
			return &mcp.ReadResourceResult{InputRequests: reqs}, nil
		})
	}
	form := &mcp.ElicitParams{Message: "again?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}
	ask("x://forever", mcp.InputRequestMap{"again": form})
	ask("x://nothing", mcp.InputRequestMap{})
	ask("x://sampling", mcp.InputRequestMap{"llm": &mcp.CreateMessageParams{MaxTokens: 10}})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestInputRoundsBoundedAndNamed: a server that never stops asking is
// stopped after a bound; an input_required result with nothing to answer,
// or one asking for sampling, gets an error that names it.
func TestInputRoundsBoundedAndNamed(t *testing.T) {
	var asked []hostcore.ElicitRequest
	url := askingServer(t) // before the host: the host closes first
	h := newHost(t, &hostcore.HostOptions{Elicit: acceptDefaults(&asked)})
	c := conn(t, h, config.ServerConfig{Name: "asking", URL: url}, "")
	for _, tt := range []struct {
		uri  string
		kind error
		says string
	}{
		{"x://forever", fault.ErrServerFault, "still asked for input after 10 rounds"},
		{"x://nothing", fault.ErrProtocol, "neither inputRequests nor a requestState"},
		{"x://sampling", fault.ErrProtocol, "sampling/createMessage"},
	} {
		_, err := c.ReadServer(context.Background(), tt.uri)
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: %v; want %v saying %q", tt.uri, err, tt.kind, tt.says)
		}
	}
	if len(asked) != 9 {
		t.Errorf("the person was asked %d times for the endless read; want 9 (10 requests)", len(asked))
	}
}
