package hostcore_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/threengram"
)

// clock is a settable clock for TTL tests: no sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// openCache opens a real SQLite body cache in a temp dir.
func openCache(t testing.TB, dir string) hostcore.BodyCache {
	t.Helper()
	s, err := cache.Open(filepath.Join(dir, "cache.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return hostcache.New(s)
}

func TestCachedReadTTLWithInjectedClock(t *testing.T) {
	clk := newClock()
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Now: clk.Now})
	c := conn(t, h, threengramMem(t), "acme")
	ctx := context.Background()
	uri := threengram.MemoryURI(someIDs(t, c)[0])
	read := func(want hostcore.CacheStatus) *hostcore.ReadResult {
		t.Helper()
		res, err := c.Read(ctx, uri, hostcore.ReadUse)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cache.Status != want {
			t.Fatalf("status %s; want %s", res.Cache.Status, want)
		}
		return res
	}
	first := read(hostcore.CacheMiss)
	if first.Cache.Scope != "private" || first.Cache.Account != "acme" {
		t.Errorf("cache info %+v", first.Cache)
	}
	sent := countSent(c, "resources/read")
	clk.Advance(24*time.Hour - time.Millisecond)
	hit := read(hostcore.CacheHit)
	if countSent(c, "resources/read") != sent {
		t.Error("a hit reached the server")
	}
	if hit.Cache.TTLLeft != time.Millisecond || hit.Cache.Age != 24*time.Hour-time.Millisecond {
		t.Errorf("hit ttlLeft %v age %v", hit.Cache.TTLLeft, hit.Cache.Age)
	}
	if hit.Contents[0].Text != first.Contents[0].Text {
		t.Error("the hit's body differs from the server's")
	}
	clk.Advance(time.Millisecond) // now == received + ttl: stale
	read(hostcore.CacheMiss)
	if countSent(c, "resources/read") != sent+1 {
		t.Error("an expired entry did not go back to the server")
	}
}

func TestPrivateBodyNeverServedToAnotherAccount(t *testing.T) {
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	sc := threengramMem(t)
	acme, globex := conn(t, h, sc, "acme"), conn(t, h, sc, "globex")
	ctx := context.Background()
	uri := threengram.MemoryURI(someIDs(t, acme)[0])
	if res, err := acme.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheMiss {
		t.Fatalf("acme's first read: %v %v", res, err)
	}
	_, err := globex.Read(ctx, uri, hostcore.ReadUse)
	if !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("globex read acme's cached memory: %v; want the server's not found", err)
	}
	if res, err := acme.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheHit {
		t.Errorf("acme's second read: %v %v; want a hit", res, err)
	}
}

// pausable is a go-sdk server over loopback HTTP whose reads wait for a
// release, and which counts them.
type pausable struct {
	reads   atomic.Int32
	entered chan struct{}
	release chan struct{}
	ttlMs   int
	scope   string
	srv     *httptest.Server
}

func newPausable(t *testing.T, ttlMs int, scope string) *pausable {
	p := &pausable{entered: make(chan struct{}, 100), release: make(chan struct{}), ttlMs: ttlMs, scope: scope}
	s := mcp.NewServer(&mcp.Implementation{Name: "pausable"}, nil)
	s.AddResource(&mcp.Resource{URI: "x://slow", Name: "slow", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			n := p.reads.Add(1)
			p.entered <- struct{}{}
			select {
			case <-p.release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{TTLMs: p.ttlMs, CacheScope: p.scope},
				Contents: []*mcp.ResourceContents{{URI: "x://slow", MIMEType: "text/plain", Text: strings.Repeat("v", int(n))}}}, nil
		})
	p.srv = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *pausable) config() config.ServerConfig {
	return config.ServerConfig{Name: "pausable", URL: p.srv.URL}
}

func TestSingleFlight(t *testing.T) {
	p := newPausable(t, 60_000, "public")
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, p.config(), "")
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() {
			if _, err := c.Read(ctx, "x://slow", hostcore.ReadUse); err != nil {
				errs <- err
			}
		})
	}
	<-p.entered
	close(p.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := p.reads.Load(); n != 1 {
		t.Errorf("10 concurrent reads made %d requests; want 1", n)
	}
}

func TestGenerationGuard(t *testing.T) {
	p := newPausable(t, 60_000, "public")
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, p.config(), "")
	ctx := context.Background()
	done := make(chan *hostcore.ReadResult)
	go func() {
		res, err := c.Read(ctx, "x://slow", hostcore.ReadUse)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-p.entered
	h.Invalidate(ctx, hostcore.CacheKey{Server: p.config().Identity(), Method: "resources/read", Param: "x://slow"})
	close(p.release)
	res := <-done
	if res.Cache.NotStored == "" {
		t.Errorf("the in-flight read was stored despite the invalidation: %+v", res.Cache)
	}
	again, err := c.Read(ctx, "x://slow", hostcore.ReadUse)
	if err != nil || again.Cache.Status != hostcore.CacheMiss || p.reads.Load() != 2 {
		t.Errorf("after the invalidation: %+v, %v, %d reads; want a miss and a second request", again.Cache, err, p.reads.Load())
	}
}

func TestModesAndStaleIfError(t *testing.T) {
	p := newPausable(t, 1_000, "private")
	close(p.release)
	clk := newClock()
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Now: clk.Now, RequestTimeout: 5 * time.Second})
	c := conn(t, h, p.config(), "")
	ctx := context.Background()
	mustRead := func(mode hostcore.ReadMode, want hostcore.CacheStatus) *hostcore.ReadResult {
		t.Helper()
		res, err := c.Read(ctx, "x://slow", mode)
		if err != nil || res.Cache.Status != want {
			t.Fatalf("mode %d: %+v, %v; want %s", mode, res, err, want)
		}
		return res
	}
	mustRead(hostcore.ReadUse, hostcore.CacheMiss)
	mustRead(hostcore.ReadUse, hostcore.CacheHit)
	mustRead(hostcore.ReadBypass, hostcore.CacheBypass)
	mustRead(hostcore.ReadRefresh, hostcore.CacheRefresh)
	if n := p.reads.Load(); n != 3 {
		t.Errorf("server reads = %d; want 3 (miss, bypass, refresh)", n)
	}
	res := mustRead(hostcore.ReadUse, hostcore.CacheHit)
	if res.Contents[0].Text != "vvv" {
		t.Errorf("refresh did not re-store: body %q", res.Contents[0].Text)
	}
	clk.Advance(2 * time.Second) // expired
	p.srv.Listener.Close()       // and the server is gone: new connections are refused
	p.srv.CloseClientConnections()
	stale := mustRead(hostcore.ReadUse, hostcore.CacheStale)
	if stale.Cache.Age != 2*time.Second || stale.Contents[0].Text != "vvv" {
		t.Errorf("stale read: age %v body %q", stale.Cache.Age, stale.Contents[0].Text)
	}
}

func TestZeroTTLNeverStored(t *testing.T) {
	p := newPausable(t, 0, "public")
	close(p.release)
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, p.config(), "")
	for range 2 {
		res, err := c.Read(context.Background(), "x://slow", hostcore.ReadUse)
		if err != nil || res.Cache.Status != hostcore.CacheMiss || res.Cache.NotStored == "" {
			t.Fatalf("%+v, %v; want a miss that was not stored", res, err)
		}
	}
}

// TestHintsAsSent uses the v2026 test server, whose three resources carry a
// public hint, a private hint, and none at all on the wire.
func TestHintsAsSent(t *testing.T) {
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	sc := mcptestMem(t, mcptest.ModeV2026, nil)
	a, b := conn(t, h, sc, ""), conn(t, h, withAccounts(sc, "other"), "other")
	ctx := context.Background()
	for _, tt := range []struct {
		uri       string
		scope     string
		ttl       time.Duration
		otherSees hostcore.CacheStatus
	}{
		{mcptest.ReadmeURI, "public", mcptest.ReadmeTTLMs * time.Millisecond, hostcore.CacheHit},
		{mcptest.LogoURI, "private", mcptest.LogoTTLMs * time.Millisecond, hostcore.CacheMiss},
		{mcptest.NotesURI, "", 0, hostcore.CacheMiss},
	} {
		res, err := a.Read(ctx, tt.uri, hostcore.ReadUse)
		if err != nil {
			t.Fatal(err)
		}
		if res.Hints.Scope != tt.scope || res.Hints.TTL != tt.ttl {
			t.Errorf("%s: hints %+v; want %q %v", tt.uri, res.Hints, tt.scope, tt.ttl)
		}
		if tt.scope == "" && (res.Cache.Scope != "private" || res.Cache.NotStored == "") {
			t.Errorf("%s: no hints must mean private and not stored (ttl 0): %+v", tt.uri, res.Cache)
		}
		other, err := b.Read(ctx, tt.uri, hostcore.ReadUse)
		if err != nil || other.Cache.Status != tt.otherSees {
			t.Errorf("%s: another account got %+v, %v; want %s", tt.uri, other.Cache, err, tt.otherSees)
		}
	}
}

// withAccounts gives sc named accounts (they differ only in name: the
// cache must still keep their private entries apart).
func withAccounts(sc config.ServerConfig, names ...string) config.ServerConfig {
	for _, n := range names {
		sc.Accounts = append(sc.Accounts, config.Account{Name: n, Env: map[string]string{"ACCOUNT": n}})
	}
	return sc
}

func TestListPagesCached(t *testing.T) {
	clk := newClock()
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Now: clk.Now})
	c := conn(t, h, threengramMem(t), "acme")
	ctx := context.Background()
	list := func() int {
		n := 0
		for _, err := range c.Templates(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		return n
	}
	if first, second := list(), list(); first != 1 || second != 1 {
		t.Fatal("threengram lists one template")
	}
	if n := countSent(c, "resources/templates/list"); n != 1 {
		t.Errorf("two listings sent %d requests; want 1 (the public hour-long hint)", n)
	}
	clk.Advance(time.Hour)
	list()
	if n := countSent(c, "resources/templates/list"); n != 2 {
		t.Errorf("after the TTL: %d requests; want 2", n)
	}
}

// TestUpdatedNotificationEvicts: notifications/resources/updated evicts the
// uri, so the next read goes to the server.
func TestUpdatedNotificationEvicts(t *testing.T) {
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, mcptestMem(t, mcptest.ModeV2026, nil), "")
	ctx := context.Background()
	if _, err := c.Read(ctx, mcptest.ReadmeURI, hostcore.ReadUse); err != nil {
		t.Fatal(err)
	}
	if res, _ := c.Read(ctx, mcptest.ReadmeURI, hostcore.ReadUse); res.Cache.Status != hostcore.CacheHit {
		t.Fatalf("second read %s; want hit", res.Cache.Status)
	}
	evicted := make(chan struct{}, 10)
	c.OnResourceUpdated(func(string) { evicted <- struct{}{} })
	cs, _ := c.Session(ctx)
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: mcptest.ReadmeURI}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for done := false; !done; {
		// 2026-07-28 Subscribe may return before the server registers the
		// listener: touch until the notification arrives.
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "touch", Arguments: map[string]any{"uri": mcptest.ReadmeURI}}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-evicted:
			done = true
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no resources/updated arrived")
		}
	}
	if res, err := c.Read(ctx, mcptest.ReadmeURI, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheMiss {
		t.Errorf("read after resources/updated: %+v, %v; want a miss", res.Cache, err)
	}
}

// TestLogoutPurgesOnlyThatAccount: logging out (or changing credentials)
// purges the account's private partition and nothing else.
func TestLogoutPurgesOnlyThatAccount(t *testing.T) {
	sc := threengramMem(t)
	cfg, _ := config.LoadConfig(filepath.Join(t.TempDir(), "config.json"))
	cfg.Upsert(sc)
	h := hostcore.NewHost(cfg, withInProcess(&hostcore.HostOptions{Cache: openCache(t, t.TempDir())}))
	defer h.Close()
	ctx := context.Background()
	acme, globex := conn(t, h, sc, "acme"), conn(t, h, sc, "globex")
	a, g := threengram.MemoryURI(someIDs(t, acme)[0]), threengram.MemoryURI(someIDs(t, globex)[0])
	acme.Read(ctx, a, hostcore.ReadUse)
	globex.Read(ctx, g, hostcore.ReadUse)
	// A credential change for acme (ReplaceServer) logs acme out.
	changed := sc
	changed.Accounts = []config.Account{
		{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "initech"}},
		sc.Accounts[1],
	}
	if err := h.ReplaceServer(ctx, changed); err != nil {
		t.Fatal(err)
	}
	st, _ := h.CacheStats(ctx, hostcore.CacheFilter{})
	if st.ByAccount["acme"] != 0 || st.ByAccount["globex"] != 1 {
		t.Errorf("after acme's credentials changed: %v; want acme purged, globex kept", st.ByAccount)
	}
	// The account now speaks with its new credentials (tenant initech),
	// on a new session: acme's memory is not its to read.
	now, err := h.Conn(sc.Name, "acme")
	if err != nil || now == acme {
		t.Fatalf("Conn after the edit = %p (%v); want a new connection, not %p", now, err, acme)
	}
	if _, err := now.Read(ctx, a, hostcore.ReadUse); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("reading acme's memory with initech's credentials: %v; want not found", err)
	}
}

// TestHandEditedTokenIsAnotherPartition: the config is edited by hand (no
// ReplaceServer to purge): the same account name now carries another
// tenant's token. The old tenant's cached body must not be served.
func TestHandEditedTokenIsAnotherPartition(t *testing.T) {
	sc, s := threengramHTTP(t)
	dir := t.TempDir()
	ctx := context.Background()
	globexTok, _ := s.IssueToken(ctx, "globex", []string{threengram.ScopeRead})
	acmeAsMe := sc
	acmeAsMe.Accounts = []config.Account{{Name: "me", Headers: sc.Accounts[0].Headers}}
	h1 := newHost(t, &hostcore.HostOptions{Cache: openCache(t, dir)})
	c1 := conn(t, h1, acmeAsMe, "me")
	uri := threengram.MemoryURI(someIDs(t, c1)[0])
	if res, err := c1.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheMiss {
		t.Fatalf("first read: %v", err)
	}
	h1.Close()
	globexAsMe := sc
	globexAsMe.Accounts = []config.Account{{Name: "me", Headers: map[string]string{"Authorization": "Bearer " + globexTok}}}
	h2 := newHost(t, &hostcore.HostOptions{Cache: openCache(t, dir)})
	if _, err := conn(t, h2, globexAsMe, "me").Read(ctx, uri, hostcore.ReadUse); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("the same account name with another tenant's token: %v; want the server's not found, never the cached body", err)
	}
}
