package threengram_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/threengram"
)

// testClock is the store's clock in OAuth tests: expiry is reached by
// moving it, never by sleeping.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// oauthServer is the reference server in its OAuth mode on loopback.
type oauthServer struct {
	Issuer string
	MCP    string // the protected resource, Issuer + "/mcp"
	Store  *threengram.Store
	Clock  *testClock
}

// startOAuth serves a seeded store with OAuth, auto-approval on and a 2 s
// access token life; edit changes the options first.
func startOAuth(t *testing.T, edit func(*threengram.OAuthOptions)) *oauthServer {
	t.Helper()
	clock := &testClock{now: time.Now()}
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), &threengram.StoreOptions{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	return serveOAuth(t, s, clock, edit)
}

// serveOAuth serves s with OAuth on a new loopback port, which is also
// its issuer.
func serveOAuth(t *testing.T, s *threengram.Store, clock *testClock, edit func(*threengram.OAuthOptions)) *oauthServer {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	opts := &threengram.OAuthOptions{Issuer: issuer, AutoApprove: true, AccessTokenTTL: 2 * time.Second}
	if edit != nil {
		edit(opts)
	}
	srv.Config.Handler = threengram.NewHTTPHandler(s, &threengram.HTTPOptions{OAuth: opts})
	srv.Start()
	t.Cleanup(srv.Close)
	return &oauthServer{Issuer: issuer, MCP: issuer + "/mcp", Store: s, Clock: clock}
}

// register registers a client through DCR, with go-sdk's client side.
func (o *oauthServer) register(t *testing.T, m oauthex.ClientRegistrationMetadata) *oauthex.ClientRegistrationResponse {
	t.Helper()
	resp, err := oauthex.RegisterClient(context.Background(), o.Issuer+"/register", &m, nil)
	if err != nil {
		t.Fatalf("registering %+v: %v", m, err)
	}
	return resp
}

// config is an x/oauth2 client of this server.
func (o *oauthServer) config(clientID, secret, redirect string, style oauth2.AuthStyle, scopes ...string) *oauth2.Config {
	return &oauth2.Config{
		ClientID: clientID, ClientSecret: secret, RedirectURL: redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: o.Issuer + "/authorize", TokenURL: o.Issuer + "/token", AuthStyle: style},
	}
}

// callback is a native client's loopback redirect listener.
type callback struct {
	URL string // the redirect URI, http://127.0.0.1:PORT/callback
	got chan url.Values
}

func newCallback(t *testing.T) *callback {
	c := &callback{got: make(chan url.Values, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case c.got <- r.URL.Query():
		default:
		}
		io.WriteString(w, "signed in; you may close this window")
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL + "/callback"
	return c
}

// visit GETs authURL as a browser would, following redirects. It returns
// the query the callback received, or nil and what the last page said.
func (c *callback) visit(t *testing.T, authURL string) (url.Values, int, string) {
	t.Helper()
	q, status, body, err := c.follow(authURL)
	if err != nil {
		t.Fatal(err)
	}
	return q, status, body
}

// follow is visit for code that cannot fail the test, such as a fetcher
// that go-sdk calls.
func (c *callback) follow(authURL string) (url.Values, int, string, error) {
	resp, err := http.Get(authURL)
	if err != nil {
		return nil, 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	select {
	case q := <-c.got: // the listener answered before Get returned
		return q, resp.StatusCode, string(body), nil
	default:
		return nil, resp.StatusCode, string(body), nil
	}
}

// signIn runs the front channel for tenant with PKCE S256 and the resource
// indicator, and returns the code and the verifier. It fails the test
// unless the redirect carries the state and the issuer.
func (o *oauthServer) signIn(t *testing.T, cfg *oauth2.Config, cb *callback, tenant string) (code, verifier string) {
	t.Helper()
	verifier = oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", o.MCP), oauth2.SetAuthURLParam("tenant", tenant))
	q, status, body := cb.visit(t, authURL)
	if q == nil {
		t.Fatalf("authorize answered %d without redirecting: %s", status, body)
	}
	if q.Get("state") != "st4te" || q.Get("iss") != o.Issuer || q.Get("code") == "" {
		t.Fatalf("authorization response %v; want a code, state st4te and iss %s", q, o.Issuer)
	}
	return q.Get("code"), verifier
}

// exchange trades code for tokens, naming the resource.
func (o *oauthServer) exchange(cfg *oauth2.Config, code, verifier string) (*oauth2.Token, error) {
	return cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("resource", o.MCP))
}

// refresh trades a refresh token for new tokens.
func refresh(cfg *oauth2.Config, refreshToken string) (*oauth2.Token, error) {
	return cfg.TokenSource(context.Background(), &oauth2.Token{RefreshToken: refreshToken}).Token()
}

// oauthCode reports the OAuth error code and HTTP status of a token
// endpoint failure.
func oauthCode(err error) (string, int) {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return "", 0
	}
	return re.ErrorCode, re.Response.StatusCode
}

// publicClient registers a native public client that may refresh, with a
// portless loopback redirect URI (any port matches it).
func (o *oauthServer) publicClient(t *testing.T) *oauthex.ClientRegistrationResponse {
	return o.register(t, oauthex.ClientRegistrationMetadata{
		ClientName:              "test client",
		RedirectURIs:            []string{"http://127.0.0.1/callback"},
		TokenEndpointAuthMethod: "none",
		GrantTypes:              []string{"authorization_code", "refresh_token"},
	})
}

// readAs reads one memory of tenant over /mcp with token, through go-sdk's
// client, and fails unless the token acts for tenant.
func (o *oauthServer) readAs(t *testing.T, token, tenant string) {
	t.Helper()
	cs := httpSession(t, o.MCP, token)
	ids := ownIDs(t, cs)
	if _, err := o.Store.Get(context.Background(), tenant, ids[0]); err != nil {
		t.Fatalf("the token searched memories that are not %s's: %v", tenant, err)
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: threengram.MemoryURI(ids[0])})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"content"`) {
		t.Fatalf("reading %s: %+v, %v", ids[0], res, err)
	}
}

// gate asks /mcp for a resources/read of a missing memory with token, and
// returns the status: 401 or 403 from the gate, or 200 when the token was
// admitted (go-sdk answers the missing memory with a JSON-RPC error, which
// a 2026-07-28 request gets with status 400; gate reports that as 200).
func (o *oauthServer) gate(t *testing.T, token string) int {
	t.Helper()
	status, body := rawRead(t, o.MCP, token, threengram.MemoryURI("mmissing"))
	if status == http.StatusBadRequest && strings.Contains(body, "-32602") {
		return http.StatusOK
	}
	return status
}

func TestOAuthAuthorizationCodeFlow(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead, threengram.ScopeOfflineAccess)
	code, verifier := o.signIn(t, cfg, cb, "globex")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.ExpiresIn != 2 ||
		tok.Extra("scope") != "memory:read offline_access" {
		t.Errorf("token = %+v, scope %q; want Bearer, a refresh token, expires_in 2, both scopes", tok, tok.Extra("scope"))
	}
	o.readAs(t, tok.AccessToken, "globex")

	// A code works once; the second try also revokes what the first gave.
	if _, err := o.exchange(cfg, code, verifier); !isCode(err, "invalid_grant") {
		t.Errorf("second exchange = %v; want invalid_grant", err)
	}
	if status := o.gate(t, tok.AccessToken); status != 401 {
		t.Errorf("access token after its code was replayed: %d; want 401", status)
	}

	// The tokens of `threengram token` keep working in the OAuth mode.
	opaque, _ := o.Store.IssueToken(context.Background(), "acme", []string{threengram.ScopeRead})
	o.readAs(t, opaque, "acme")
}

func isCode(err error, code string) bool {
	got, _ := oauthCode(err)
	return got == code
}

func TestOAuthRefreshRotatesAndExpiryEnds(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
	code, verifier := o.signIn(t, cfg, cb, "acme")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	if status := o.gate(t, tok.AccessToken); status != http.StatusOK {
		t.Fatalf("fresh access token: %d", status)
	}
	o.Clock.Advance(2 * time.Second) // the access token's life
	if status := o.gate(t, tok.AccessToken); status != 401 {
		t.Errorf("expired access token: %d; want 401", status)
	}

	next, err := refresh(cfg, tok.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if next.RefreshToken == "" || next.RefreshToken == tok.RefreshToken || next.Extra("scope") != threengram.ScopeRead {
		t.Errorf("refresh gave %+v; want a new refresh token and scope memory:read", next)
	}
	o.readAs(t, next.AccessToken, "acme")

	// A spent refresh token is a replay: refused, and the grant ends.
	if _, err := refresh(cfg, tok.RefreshToken); !isCode(err, "invalid_grant") {
		t.Errorf("spent refresh token = %v; want invalid_grant", err)
	}
	if status := o.gate(t, next.AccessToken); status != 401 {
		t.Errorf("access token of a replayed grant: %d; want 401", status)
	}
	if _, err := refresh(cfg, next.RefreshToken); !isCode(err, "invalid_grant") {
		t.Errorf("refresh of a revoked grant = %v; want invalid_grant", err)
	}
}

func TestOAuthCodesAndRefreshTokensExpire(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)

	code, verifier := o.signIn(t, cfg, cb, "acme")
	o.Clock.Advance(time.Minute)
	if _, err := o.exchange(cfg, code, verifier); !isCode(err, "invalid_grant") {
		t.Errorf("exchange of a minute-old code = %v; want invalid_grant", err)
	}

	code, verifier = o.signIn(t, cfg, cb, "acme")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	// x/oauth2 sends no scope when it refreshes; a raw request does.
	resp, err := http.PostForm(o.Issuer+"/token", url.Values{"grant_type": {"refresh_token"},
		"client_id": {client.ClientID}, "refresh_token": {tok.RefreshToken}, "scope": {threengram.ScopeWrite}})
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Error string }
	decodeJSON(t, resp.Body, &body)
	resp.Body.Close()
	if body.Error != "invalid_scope" {
		t.Errorf("refresh for a scope beyond the grant: %d %q; want invalid_scope", resp.StatusCode, body.Error)
	}
	o.Clock.Advance(threengram.DefaultRefreshTokenTTL)
	if _, err := refresh(cfg, tok.RefreshToken); !isCode(err, "invalid_grant") {
		t.Errorf("refresh after the refresh token's life = %v; want invalid_grant", err)
	}
}
