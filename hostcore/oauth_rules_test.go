package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/secretstore"
	"github.com/attache/attache/internal/threengram"
)

// tgServer is the reference server over loopback HTTP with OAuth, for the
// rules the host keeps when it signs in.
type tgServer struct {
	sc     config.ServerConfig
	issuer string
	clock  *serverClock
	seen   *tgRequests
}

// serverClock is the server's clock, which a test moves on.
type serverClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *serverClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.at }
func (c *serverClock) add(d time.Duration) { c.mu.Lock(); c.at = c.at.Add(d); c.mu.Unlock() }

// tgRequests records what reached the server.
type tgRequests struct {
	mu   sync.Mutex
	reqs []string // "METHOD PATH bearer?"
}

func (l *tgRequests) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := r.Method + " " + r.URL.Path
	if r.Header.Get("Authorization") != "" {
		line += " with a bearer"
	}
	l.reqs = append(l.reqs, line)
}

func (l *tgRequests) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.reqs, "\n")
}

// serveTG serves a seeded threengram with OAuth (auto-approval on), its
// handler wrapped by wrap (nil: as it is), on a clock of its own.
func serveTG(t *testing.T, wrap func(issuer string, next http.Handler) http.Handler) *tgServer {
	t.Helper()
	clock := &serverClock{at: time.Now()}
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), &threengram.StoreOptions{Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	var h http.Handler = threengram.NewHTTPHandler(s, &threengram.HTTPOptions{
		OAuth: &threengram.OAuthOptions{Issuer: issuer, AutoApprove: true}})
	if wrap != nil {
		h = wrap(issuer, h)
	}
	seen := &tgRequests{}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen.add(r); h.ServeHTTP(w, r) })
	srv.Start()
	t.Cleanup(srv.Close)
	return &tgServer{sc: config.ServerConfig{Name: "tg", URL: issuer + "/mcp", Accounts: []config.Account{{Name: "me"}}},
		issuer: issuer, clock: clock, seen: seen}
}

// approving is a Present that approves tenant acme, counting its pages.
func approving(n *atomic.Int32) func(context.Context, signin.Page) error {
	return func(ctx context.Context, page signin.Page) error {
		n.Add(1)
		return approveAcme(ctx, page.URL)
	}
}

// A request that the person did not ask for never presents a sign-in: it
// is told to sign in, naming the action. One the person asked for does.
func TestNoSignInUnlessAsked(t *testing.T) {
	tg := serveTG(t, nil)
	var pages atomic.Int32
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Present: approving(&pages)}})
	c := conn(t, h, tg.sc, "")
	_, err := c.Complete(context.Background(), threengram.MemoryTemplate, "id", "m", nil)
	var he *fault.Error
	if !errors.Is(err, signin.ErrNeeded) || !errors.As(err, &he) || !strings.HasPrefix(he.Hint(), "Sign in to read this") || pages.Load() != 0 {
		t.Fatalf("a background request: %v (pages %d); want sign-in needed, Sign in to read this, no page", err, pages.Load())
	}
	if got, err := c.Complete(signin.MayStart(context.Background()), threengram.MemoryTemplate, "id", "m", nil); err != nil || len(got.Values) == 0 || pages.Load() != 1 {
		t.Errorf("a request the person asked for: %v, %v (pages %d); want a sign-in, then the values", got, err, pages.Load())
	}
}

// After a sign-out, nothing signs the account in again, not even a read
// the person asks for: it says "you signed out" and names the next step;
// the connection the sign-out closed says the same. Login asks again.
func TestNoSignInAfterLogout(t *testing.T) {
	tg := serveTG(t, nil)
	var pages atomic.Int32
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Present: approving(&pages)}})
	if _, err := h.Login(context.Background(), tg.sc, ""); err != nil {
		t.Fatal(err)
	}
	old := conn(t, h, tg.sc, "")
	if err := h.Logout(context.Background(), tg.sc, ""); err != nil {
		t.Fatal(err)
	}
	asked := signin.MayStart(context.Background())
	for name, c := range map[string]*hostcore.Conn{"the closed connection": old, "a new connection": conn(t, h, tg.sc, "")} {
		_, err := c.Complete(asked, threengram.MemoryTemplate, "id", "m", nil)
		var he *fault.Error
		if !errors.Is(err, signin.ErrNeeded) || !errors.As(err, &he) || !strings.Contains(he.Message(), "you signed out") ||
			!strings.HasPrefix(he.Hint(), "Sign in to read this") {
			t.Errorf("%s after Logout: %v; want you signed out, Sign in to read this", name, err)
		}
	}
	if st := h.SignIns().StateOf(tg.sc, ""); pages.Load() != 1 || st.Ended != "you signed out" || st.Waiting {
		t.Errorf("after Logout and two asked reads: %d pages, state %+v; want 1 page, ended by the sign-out", pages.Load(), st)
	}
	if _, err := h.Login(context.Background(), tg.sc, ""); err != nil || pages.Load() != 2 {
		t.Errorf("Login after Logout: %v, %d pages; want signed in, 2", err, pages.Load())
	}
}

// The wait for a sign-in ends by the caller's own deadline (a command's
// --timeout), not the host's five minutes: the sign-in keeps the deadline
// while it drops the host's shorter connect timeout.
func TestSignInWaitKeepsTheCallersDeadline(t *testing.T) {
	tg := serveTG(t, nil)
	shown := make(chan struct{}, 1)
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Timeout: 10 * time.Minute,
		Present: func(ctx context.Context, _ signin.Page) error {
			shown <- struct{}{}
			<-ctx.Done() // nobody comes
			return ctx.Err()
		}}})
	ctx, cancel := context.WithTimeout(signin.MayStart(context.Background()), time.Second)
	defer cancel()
	_, err := conn(t, h, tg.sc, "").Complete(ctx, threengram.MemoryTemplate, "id", "m", nil)
	<-shown
	if !errors.Is(err, fault.ErrTimeout) || !strings.Contains(err.Error(), "waiting for the sign-in") {
		t.Errorf("a sign-in nobody answers, under a 1 s deadline: %v; want a timeout while waiting for the sign-in", err)
	}
}

// The loopback redirect answers honestly: a request with another state, or
// none, gets an error page and leaves the sign-in waiting; the answer with
// the right state gets "signed in" only once its code is exchanged, and a
// code the authorization server refuses is said to have failed.
func TestHonestCallback(t *testing.T) {
	tg := serveTG(t, nil)
	var real atomic.Bool
	refusedPage := make(chan string, 1)
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{
		Present: func(ctx context.Context, page signin.Page) error {
			u, _ := url.Parse(page.URL)
			q := u.Query()
			redirect, state := q.Get("redirect_uri"), q.Get("state")
			for _, forged := range []string{"?code=x&state=not-" + state, "?code=x"} {
				if status, body := getPage(t, redirect+forged); status != http.StatusBadRequest || strings.Contains(body, "signed in") ||
					!strings.Contains(body, "still waiting") {
					t.Errorf("a forged answer %s: %d %q; want 400, the sign-in still waiting", forged, status, body)
				}
			}
			if real.Load() {
				return approveAcme(ctx, page.URL)
			}
			// The right state, with a code the server never issued.
			_, body := getPage(t, redirect+"?code=tgc_forged&state="+url.QueryEscape(state)+"&iss="+url.QueryEscape(tg.issuer))
			refusedPage <- body
			return nil
		}}})
	_, err := h.Login(context.Background(), tg.sc, "")
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Errorf("a sign-in whose code is refused: %v; want the refusal", err)
	}
	select {
	case body := <-refusedPage:
		if !strings.Contains(body, "did not succeed") || strings.Contains(body, "You are signed in") {
			t.Errorf("the answer page of a refused code: %q; want that the sign-in did not succeed", body)
		}
	case <-time.After(30 * time.Second): // a failure's bound, not a wait for something
		t.Fatal("the answer page of a refused code never came")
	}
	real.Store(true)
	if _, err := h.Login(context.Background(), tg.sc, ""); err != nil {
		t.Errorf("a sign-in after forged answers: %v; want signed in", err)
	}
}

func getPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rewriteMetadata serves the authorization server metadata edited by edit.
func rewriteMetadata(edit func(m map[string]any)) func(string, http.Handler) http.Handler {
	return func(_ string, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasPrefix(r.URL.Path, "/.well-known/oauth-authorization-server") && !strings.HasPrefix(r.URL.Path, "/.well-known/openid-configuration") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			var m map[string]any
			json.Unmarshal(rec.Body.Bytes(), &m)
			edit(m)
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(m)
		})
	}
}

// A sign-in the host refuses says why without -v: metadata whose issuer
// is not the server it was fetched for, or without PKCE. No credentials
// were sent, so it never says the server refused them.
func TestRefusalsSayWhy(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(m map[string]any)
		says string
	}{
		{"issuer", func(m map[string]any) { m["issuer"] = "https://attacker.example.com" }, `its issuer is "https://attacker.example.com", not "http://`},
		{"pkce", func(m map[string]any) { delete(m, "code_challenge_methods_supported") }, "offers no PKCE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tg := serveTG(t, rewriteMetadata(tt.edit))
			var pages atomic.Int32
			h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Present: approving(&pages)}})
			_, err := h.Login(context.Background(), tg.sc, "")
			var he *fault.Error
			if !errors.As(err, &he) || !strings.Contains(he.Message(), tt.says) || strings.Contains(he.Message(), "refused the credentials") ||
				!errors.Is(err, fault.ErrProtocol) || pages.Load() != 0 {
				t.Errorf("Login: %v (%d pages); want a protocol refusal saying %q, no page", err, pages.Load(), tt.says)
			}
		})
	}
}

// always403 answers every authenticated MCP request with 403
// insufficient_scope, asking for scope: a server whose step-ups never
// satisfy it.
func always403(scope string) func(string, http.Handler) http.Handler {
	return func(issuer string, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" && r.Header.Get("Authorization") != "" {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+scope+`", resource_metadata="`+
					issuer+`/.well-known/oauth-protected-resource/mcp"`)
				http.Error(w, "more scope, please", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// After the step-up limit, the error is the server's scope refusal, not
// whatever go-sdk's fallback to initialize met after it.
func TestStepUpLimitSaysTheScope(t *testing.T) {
	tg := serveTG(t, always403(threengram.ScopeWrite))
	var pages atomic.Int32
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Present: approving(&pages)}})
	_, err := h.Login(context.Background(), tg.sc, "")
	var he *fault.Error
	if !errors.Is(err, fault.ErrForbidden) || !errors.As(err, &he) || !strings.Contains(he.Message(), "memory:write") || pages.Load() > 3 {
		t.Errorf("a server that always wants more scope: %v (%d pages); want forbidden, naming memory:write, and a bounded number of sign-ins", err, pages.Load())
	}
}

// elsewhere is a transport that reaches a loopback server under the name
// tg.test: a plain-http server that is not on this machine, as far as the
// host can tell from the URL.
func elsewhere(addr string) http.RoundTripper {
	d := &net.Dialer{}
	return &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
}

// Tokens go only over TLS or to loopback: the host refuses to sign in to
// a plain-http server elsewhere, and never sends it a grant's token, with
// an error that says why.
func TestTokensOnlyOverTLS(t *testing.T) {
	tg := serveTG(t, nil)
	addr := strings.TrimPrefix(tg.issuer, "http://")
	far := tg.sc
	far.URL = "http://tg.test:" + addr[strings.LastIndex(addr, ":")+1:] + "/mcp"
	var pages atomic.Int32
	mem := &grantMap{}
	h := newHost(t, &hostcore.HostOptions{HTTPTransport: elsewhere(addr),
		OAuth: &signin.Options{Tokens: mem, Present: approving(&pages)}})

	// Signing in: refused before any page, registration or token request.
	_, err := h.Login(context.Background(), far, "")
	if !errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), "plain http") || pages.Load() != 0 {
		t.Errorf("signing in to %s: %v (%d pages); want a refusal that says plain http", far.URL, err, pages.Load())
	}
	if seen := tg.seen.all(); strings.Contains(seen, "/authorize") || strings.Contains(seen, "/token") || strings.Contains(seen, "/register") {
		t.Errorf("the refused sign-in reached the authorization server:\n%s", seen)
	}

	// A grant kept for it (from a sign-in over loopback) is never sent.
	near := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Tokens: mem, Present: approving(&pages)}})
	g, err := near.Login(context.Background(), tg.sc, "")
	if err != nil {
		t.Fatal(err)
	}
	g.Resource = "http://tg.test:" + addr[strings.LastIndex(addr, ":")+1:] + "/mcp"
	mem.Save(context.Background(), g)
	before := strings.Count(tg.seen.all(), "with a bearer")
	_, err = conn(t, h, far, "").Complete(signin.MayStart(context.Background()), threengram.MemoryTemplate, "id", "m", nil)
	if !errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("a read of %s with a kept grant: %v; want a refusal that says plain http", far.URL, err)
	}
	if after := strings.Count(tg.seen.all(), "with a bearer"); after != before {
		t.Errorf("%d requests carried the grant's token to the plain-http server", after-before)
	}
}

// grantMap is a TokenStore in memory that tests can fill.
type grantMap struct {
	mu sync.Mutex
	m  map[signin.GrantKey]signin.Grant
}

func (s *grantMap) Load(_ context.Context, k signin.GrantKey) (*signin.Grant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g, ok := s.m[k]; ok {
		return &g, nil
	}
	return nil, nil
}

func (s *grantMap) Save(_ context.Context, g *signin.Grant) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[signin.GrantKey]signin.Grant{}
	}
	s.m[g.Key()] = *g
	return nil
}

func (s *grantMap) Delete(_ context.Context, k signin.GrantKey) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, k)
	return nil
}

func (s *grantMap) List(context.Context) ([]signin.Grant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []signin.Grant
	for _, g := range s.m {
		out = append(out, g)
	}
	return out, nil
}

// Two hosts (two processes, as far as the grant knows) share one grant in
// the file store, at a server that rotates refresh tokens. When the server
// has let the access token expire, both are refused and both renew: one
// refreshes, the other, reading the stored grant again under the lock,
// takes that refreshed token instead of spending the refresh token twice,
// which would revoke the grant. Both read, and the account stays signed in.
func TestRefreshesTakeTurns(t *testing.T) {
	tg := serveTG(t, nil)
	dir := t.TempDir()
	var pages atomic.Int32
	host := func() *hostcore.Host {
		return newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{Present: approving(&pages),
			Tokens: secretstore.Open(dir, &secretstore.Options{File: true})}})
	}
	a, b := host(), host()
	if _, err := a.Login(context.Background(), tg.sc, ""); err != nil {
		t.Fatal(err)
	}
	asked := signin.MayStart(context.Background())
	ca, cb := conn(t, a, tg.sc, ""), conn(t, b, tg.sc, "")
	ids, err := ca.Complete(asked, threengram.MemoryTemplate, "id", "m", nil)
	if err != nil || len(ids.Values) == 0 {
		t.Fatalf("completing ids: %v, %v", ids, err)
	}
	read := func(when string) {
		t.Helper()
		for i, c := range []*hostcore.Conn{ca, cb} {
			if _, err := c.Read(asked, threengram.MemoryURI(ids.Values[0]), hostcore.ReadRefresh); err != nil {
				t.Errorf("host %d, %s: %v", i, when, err)
			}
		}
	}
	read("with the grant's first tokens")
	tg.clock.add(11 * time.Minute) // the access token has expired at the server
	read("after the access token expired (a renewed token)")
	read("after both renewed (the grant still good)")
	if g, err := b.SignIns().GrantOf(context.Background(), tg.sc, ""); err != nil || g == nil || pages.Load() != 1 {
		t.Errorf("after both renewed: grant %v, %v, %d pages; want still signed in, with no second sign-in", g, err, pages.Load())
	}
}
