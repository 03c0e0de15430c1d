package hostcore_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/npmpeer"
)

// wireLog is a host's base round tripper: it sees each HTTP request as
// the server receives it, after the credential round tripper.
type wireLog struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (l *wireLog) RoundTrip(r *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, r.Clone(context.Background()))
	l.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// lines returns "METHOD PATH" of each request, in order.
func (l *wireLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.reqs {
		out = append(out, r.Method+" "+r.URL.Path)
	}
	return out
}

func (l *wireLog) all() []*http.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*http.Request(nil), l.reqs...)
}

const architectureURI = "demo://resource/static/document/architecture.md"

// The legacy HTTP+SSE transport, chosen by the config or found by the
// probe, against server-everything's sse mode: listing, a read byte-exact
// with the same server over stdio and with the wire, the credentials on
// every request, and a subscription whose updates arrive on the stream.
func TestEverythingOverSSE(t *testing.T) {
	endpoint := npmpeer.EverythingSSE(t)
	ctx := context.Background()
	stdio, err := conn(t, newHost(t, nil), everything(t), "").ReadServer(ctx, architectureURI)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, transport string
		wantFirst       []string // the first requests of the first connect
	}{
		{"config", config.TransportSSE, []string{"GET /sse", "POST /message"}},
		{"probe", config.TransportAuto, []string{"POST /sse", "POST /sse", "GET /sse", "POST /message"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			log := &wireLog{}
			sc := config.ServerConfig{Name: "everything-sse", URL: endpoint, Transport: tt.transport,
				Headers: map[string]string{"X-Attache-Test": "credential-1"}}
			c := conn(t, newHost(t, &hostcore.HostOptions{HTTPTransport: log}), sc, "")
			n := 0
			for r, err := range c.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(r.URI, "demo://resource/static/document/") {
					n++
				}
			}
			if n != 7 {
				t.Errorf("listed %d static documents; want 7", n)
			}
			if hs := c.Info().Handshake; hs.Transport != config.TransportSSE {
				t.Errorf("handshake %+v; want the sse transport", hs)
			}
			got := log.lines()
			if len(got) < len(tt.wantFirst) || strings.Join(got[:len(tt.wantFirst)], ", ") != strings.Join(tt.wantFirst, ", ") {
				t.Errorf("requests %v; want them to start with %v", got, tt.wantFirst)
			}

			res, err := c.ReadServer(ctx, architectureURI)
			if err != nil {
				t.Fatal(err)
			}
			wire := wireContents(t, res.Raw.Response)
			if len(res.Contents) != 1 || len(stdio.Contents) != 1 || res.Contents[0].Text != stdio.Contents[0].Text ||
				res.Contents[0].Text != wire[0]["text"] || res.Contents[0].Text == "" {
				t.Errorf("the read over sse differs from stdio's or from the wire")
			}
			for _, r := range log.all() {
				if v := r.Header.Get("X-Attache-Test"); v != "credential-1" {
					t.Errorf("%s %s went without the configured header (got %q)", r.Method, r.URL.Path, v)
				}
			}
		})
	}
}

// What the probe found is remembered: a later host goes straight to the
// event stream, without the two refused POSTs.
func TestSSEProbeRemembered(t *testing.T) {
	endpoint := npmpeer.EverythingSSE(t)
	cache := openCache(t, t.TempDir())
	sc := config.ServerConfig{Name: "everything-sse", URL: endpoint}
	var first []string
	for i := range 2 {
		log := &wireLog{}
		h := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{HTTPTransport: log, Cache: cache}))
		c := conn(t, h, sc, "")
		if _, err := c.Session(context.Background()); err != nil {
			t.Fatal(err)
		}
		hs := c.Info().Handshake
		h.Close()
		if i == 0 {
			first = log.lines()
			continue
		}
		got := log.lines()
		if len(got) == 0 || got[0] != "GET /sse" || !hs.Remembered || hs.Transport != config.TransportSSE ||
			hs.Opening != hostcore.OpeningInitialize {
			t.Errorf("second connect: requests %v, handshake %+v; want GET /sse first, remembered", got, hs)
		}
		if sent := sentCount(got, "POST /sse"); sent != 0 || sentCount(first, "POST /sse") != 2 {
			t.Errorf("POSTs to the SSE URL: %d then %d; want 2 then 0", sentCount(first, "POST /sse"), sent)
		}
	}
}

func sentCount(lines []string, line string) int {
	n := 0
	for _, l := range lines {
		if l == line {
			n++
		}
	}
	return n
}

// A subscription over SSE gets its updates on the event stream, which
// outlives the connect.
func TestSSESubscriptionUpdates(t *testing.T) {
	endpoint := npmpeer.EverythingSSE(t)
	c := conn(t, newHost(t, nil), config.ServerConfig{Name: "everything-sse", URL: endpoint, Transport: config.TransportSSE}, "")
	ctx := context.Background()
	if ok, err := c.Offers(ctx, hostcore.FeatureSubscribe); !ok || err != nil {
		t.Fatalf("Offers(subscribe) = %v, %v", ok, err)
	}
	updated := make(chan string, 16)
	defer c.OnResourceUpdated(func(uri string) {
		select {
		case updated <- uri:
		default:
		}
	})()
	if err := c.Subscribe(ctx, architectureURI); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// server-everything sends updates every 5 s once this tool is called.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "toggle-subscriber-updates"}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != architectureURI {
			t.Errorf("update for %q; want %q", uri, architectureURI)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notifications/resources/updated within 30 s")
	}
}

func TestTransportInConfig(t *testing.T) {
	for _, tt := range []struct {
		name string
		sc   config.ServerConfig
		ok   bool
	}{
		{"auto", config.ServerConfig{Name: "a", URL: "http://h/mcp"}, true},
		{"streamable", config.ServerConfig{Name: "a", URL: "http://h/mcp", Transport: "streamable"}, true},
		{"sse", config.ServerConfig{Name: "a", URL: "http://h/sse", Transport: "sse"}, true},
		{"unknown", config.ServerConfig{Name: "a", URL: "http://h/mcp", Transport: "websocket"}, false},
		{"sse for a command", config.ServerConfig{Name: "a", Command: "srv", Transport: "sse"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.sc.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate = %v; want ok %v", err, tt.ok)
			}
		})
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "mcp.json")
	data := `{"servers": {
		"legacy": {"type": "sse", "url": "http://127.0.0.1:1/sse"},
		"modern": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
		"local":  {"type": "stdio", "command": "srv"}}}`
	if err := os.WriteFile(src, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	servers, err := config.ReadImport(context.Background(), config.ImportSource{Kind: "vscode", Path: src})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range servers {
		got[s.Name] = s.Transport
	}
	want := map[string]string{"legacy": config.TransportSSE, "modern": config.TransportAuto, "local": config.TransportAuto}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imported transports (-want +got):\n%s", diff)
	}
}
