package hostcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
)

// methodCounter counts the JSON-RPC methods POSTed to the handler it wraps.
type methodCounter struct {
	mu   sync.Mutex
	seen map[string]int
	next atomic.Pointer[http.Handler]
}

func newMethodCounter(h http.Handler) *methodCounter {
	m := &methodCounter{seen: map[string]int{}}
	m.next.Store(&h)
	return m
}

// swap makes every later request go to h: the server was upgraded.
func (m *methodCounter) swap(h http.Handler) { m.next.Store(&h) }

func (m *methodCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method != "" {
			m.mu.Lock()
			m.seen[msg.Method]++
			m.mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	(*m.next.Load()).ServeHTTP(w, r)
}

// take returns the handshake requests seen since the last take.
func (m *methodCounter) take() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{"server/discover": m.seen["server/discover"], "initialize": m.seen["initialize"]}
	m.seen = map[string]int{}
	return out
}

// refuseInitialize is a 2026-07-28 server that no longer knows initialize,
// as a server that dropped the legacy handshake answers it.
func refuseInitialize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == "initialize" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found: initialize"}}`, msg.ID)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func modeHandler(t *testing.T, mode string) http.Handler {
	h, err := mcptest.Handler(mode, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// connectOnce connects a fresh host (a new process, as far as the host
// knows) over the shared cache and returns how the session was opened.
func connectOnce(t *testing.T, cache hostcore.BodyCache, sc config.ServerConfig) hostcore.ConnInfo {
	t.Helper()
	h := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{Cache: cache}))
	defer h.Close()
	c := conn(t, h, sc, "")
	if _, err := c.Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c.Info()
}

// A legacy server costs server/discover once: later connects, from a new
// host over the same cache, go straight to initialize. When the server is
// upgraded and refuses initialize, the host probes again and remembers the
// new way.
func TestHandshakeRememberedAcrossHosts(t *testing.T) {
	counter := newMethodCounter(modeHandler(t, mcptest.ModeV2025Nov))
	srv := httptest.NewServer(counter)
	t.Cleanup(srv.Close)
	sc := config.ServerConfig{Name: "legacy", URL: srv.URL + "/mcp"}
	cache := openCache(t, t.TempDir())

	type step struct {
		Sent      map[string]int
		Version   string
		Handshake hostcore.Handshake
	}
	connect := func() step {
		info := connectOnce(t, cache, sc)
		return step{counter.take(), info.ProtocolVersion, info.Handshake}
	}
	probe := hostcore.Handshake{Transport: config.TransportStreamable, Opening: hostcore.OpeningInitialize}
	remembered := probe
	remembered.Remembered = true
	discover := hostcore.Handshake{Transport: config.TransportStreamable, Opening: hostcore.OpeningDiscover}

	got := []step{connect(), connect()}
	counter.swap(refuseInitialize(modeHandler(t, mcptest.ModeV2026)))
	got = append(got, connect(), connect())
	want := []step{
		{map[string]int{"server/discover": 1, "initialize": 1}, mcptest.Version2025Nov, probe},
		{map[string]int{"server/discover": 0, "initialize": 1}, mcptest.Version2025Nov, remembered},
		// upgraded: the remembered initialize is refused, and the host probes again
		{map[string]int{"server/discover": 1, "initialize": 1}, mcptest.Version2026, discover},
		{map[string]int{"server/discover": 1, "initialize": 0}, mcptest.Version2026, discover},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("connects (-want +got):\n%s", diff)
	}
}

// Over stdio, each connect starts a new process: the second one, even
// from another host, gets no server/discover. Without a cache, the host
// remembers in memory for its own connections.
func TestHandshakeRememberedOverStdio(t *testing.T) {
	sc := mcptestStdio(t, mcptest.ModeV2025Jun)
	sent := func(h *hostcore.Host, sc config.ServerConfig, account string) (map[string]int, hostcore.ConnInfo) {
		t.Helper()
		c := conn(t, h, sc, account)
		if _, err := c.Session(context.Background()); err != nil {
			t.Fatal(err)
		}
		m := sentMethods(c)
		return map[string]int{"server/discover": m["server/discover"], "initialize": m["initialize"]}, c.Info()
	}
	t.Run("cache", func(t *testing.T) {
		cache := openCache(t, t.TempDir())
		first, _ := sent(newHost(t, &hostcore.HostOptions{Cache: cache}), sc, "")
		second, info := sent(newHost(t, &hostcore.HostOptions{Cache: cache}), sc, "")
		if first["server/discover"] != 1 || second["server/discover"] != 0 || second["initialize"] != 1 {
			t.Errorf("first connect sent %v, second %v; want the second without server/discover", first, second)
		}
		if info.ProtocolVersion != mcptest.Version2025Jun || !info.Handshake.Remembered || info.Handshake.Transport != config.TransportStdio {
			t.Errorf("second connect: version %q, handshake %+v", info.ProtocolVersion, info.Handshake)
		}
	})
	t.Run("memory", func(t *testing.T) {
		two := sc
		two.Accounts = []config.Account{{Name: "a"}, {Name: "b", Env: map[string]string{"X": "1"}}}
		h := newHost(t, nil)
		first, _ := sent(h, two, "a")
		second, _ := sent(h, two, "b") // another connection to the same server identity
		if first["server/discover"] != 1 || second["server/discover"] != 0 {
			t.Errorf("first connect sent %v, second %v; want the second without server/discover", first, second)
		}
	})
}

// A 2026-07-28 server is opened with server/discover, and no initialize
// is remembered for it.
func TestHandshakeDiscoverIsNotPersisted(t *testing.T) {
	cache := openCache(t, t.TempDir())
	sc := mcptestMem(t, mcptest.ModeV2026, nil)
	info := connectOnce(t, cache, sc)
	if info.Handshake.Opening != hostcore.OpeningDiscover || info.ProtocolVersion != mcptest.Version2026 {
		t.Errorf("handshake %+v, version %q; want discover, 2026-07-28", info.Handshake, info.ProtocolVersion)
	}
	if _, ok, err := cache.Get(context.Background(), hostcore.CacheKey{Server: sc.Identity(), Method: "handshake"}, ""); ok || err != nil {
		t.Errorf("a handshake entry was stored for a discover server (%v)", err)
	}
}

// A discover server is remembered in memory for as long as the discover
// result's ttlMs allows, never in the cache.
func TestHandshakeDiscoverTTL(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "ttl", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{mcptest.Version2026},
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ServerRequest[*mcp.DiscoverParams]); ok {
				c.TTLMs, c.CacheScope = 60_000, "public"
			}
		},
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	sc := config.ServerConfig{Name: "ttl", URL: hs.URL, Accounts: []config.Account{
		{Name: "a", Headers: map[string]string{"X-A": "1"}}, {Name: "b", Headers: map[string]string{"X-B": "1"}},
		{Name: "c", Headers: map[string]string{"X-C": "1"}}}}
	clk := newClock()
	cache := openCache(t, t.TempDir())
	h := newHost(t, &hostcore.HostOptions{Cache: cache, Now: clk.Now})
	var got []hostcore.Handshake
	for _, account := range []string{"a", "b", "c"} {
		c := conn(t, h, sc, account)
		if _, err := c.Session(context.Background()); err != nil {
			t.Fatal(err)
		}
		got = append(got, c.Info().Handshake)
		clk.Advance(40 * time.Second) // b within the 60 s, c past them
	}
	discover := hostcore.Handshake{Transport: config.TransportStreamable, Opening: hostcore.OpeningDiscover}
	remembered := discover
	remembered.Remembered = true
	// b connects 40 s after a, within the 60 s; c 80 s after a: what came
	// from memory for b renewed nothing, so c probes afresh.
	if diff := cmp.Diff([]hostcore.Handshake{discover, remembered, discover}, got); diff != "" {
		t.Errorf("handshakes (-want +got):\n%s", diff)
	}
	if _, ok, _ := cache.Get(context.Background(), hostcore.CacheKey{Server: sc.Identity(), Method: "handshake"}, ""); ok {
		t.Error("a discover handshake was stored in the cache")
	}
}
