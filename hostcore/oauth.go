package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/config"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Signing in to servers that follow the MCP authorization spec. The flow
// itself (protected resource metadata, authorization server metadata,
// client registration, PKCE S256, RFC 8707 resource, the RFC 9207 iss
// check, step-up scopes) is go-sdk's auth.AuthorizationCodeHandler over
// golang.org/x/oauth2. The host adds what a desktop host needs around it: a
// loopback redirect listener that answers honestly (oauth_callback.go),
// grants kept between runs in a TokenStore, refresh that persists and that
// processes take turns at (grant_lock.go), a sign-in the person drives
// (signin.go), tokens only over TLS or to loopback (oauth_tls.go),
// refusals that say why (oauth_refusal.go), a move to another
// authorization server (oauth_move.go), who the grant is for
// (oauth_subject.go), and the grant as the authorization context: a
// connection signed in through OAuth has the partition of its grant, which
// a refresh keeps and a new sign-in replaces.

// OAuthOptions configures signing in. A nil *OAuthOptions in HostOptions
// turns OAuth off: a 401 is then final.
type OAuthOptions struct {
	// Tokens keeps grants between runs; nil keeps them in memory for the
	// Host's life.
	Tokens TokenStore
	// Present points the person (or, for test servers that approve without
	// one, an HTTP client) at the authorization page. The host waits for
	// the redirect on its loopback listener meanwhile: Present may return
	// at once, or hold the page up until ctx ends, which it does when the
	// sign-in ends (it succeeded, failed, timed out or was abandoned). An
	// error from Present abandons the sign-in; return context.Canceled
	// when the person canceled it. Present is called on a goroutine of the
	// host's, never on the one that asked for the read. Nil means the host
	// never starts a sign-in: a server that asks for one gets
	// Unauthorized, saying how to sign in.
	Present func(ctx context.Context, page SignInPage) error
	// ClientMetadataURL is the https URL of the host's Client ID Metadata
	// Document, used as its client_id where the authorization server
	// supports it (and no pre-registered client is configured).
	ClientMetadataURL string
	// Timeout bounds the wait for the redirect; 0 means 5 minutes.
	Timeout time.Duration
	// ClientName is the name registered with Dynamic Client Registration;
	// "" means "Attaché".
	ClientName string
	// SignInOnMove lets a request that may sign in (MaySignIn) do so at a
	// server's new authorization server, when the server moved to another
	// (SEP-2352): a command-line host, whose every command is the
	// person's. Unset (a window), the account waits, moved, until the
	// person signs in (Login).
	SignInOnMove bool
}

// SignInPage is an authorization page to show: whose sign-in it is, and
// where.
type SignInPage struct {
	// Server and Account name the configured server and the account that
	// signs in.
	Server, Account string
	// URL is the authorization server's page, with the request in its
	// query. It holds no secret (PKCE keeps the verifier at home), so it
	// may be shown and copied.
	URL string
}

// maxStepUps bounds step-up sign-ins (403 insufficient_scope) per
// connection, so that a server that never accepts the scopes it asks for
// cannot make the host ask for ever.
const maxStepUps = 2

// ErrSignInNeeded is the cause of the Unauthorized error of a connection
// that has no usable grant: the person must sign in (again).
var ErrSignInNeeded = errors.New("sign-in needed")

// oauthHandler is a connection's auth.OAuthHandler: go-sdk's Streamable
// HTTP transport asks it for a token source for every request, and calls
// Authorize after a 401 or 403.
type oauthHandler struct {
	c   *Conn
	key GrantKey

	mu      sync.Mutex
	loaded  bool
	grant   *Grant
	source  *grantSource
	stepUps int
}

func (h *Host) tokens() TokenStore {
	if h.opts.OAuth != nil && h.opts.OAuth.Tokens != nil {
		return h.opts.OAuth.Tokens
	}
	return &h.memTokens
}

// newOAuthHandler returns the handler of an HTTP connection that presents
// no Authorization header of its own, or nil when OAuth is off.
func newOAuthHandler(c *Conn, a *authContext) *oauthHandler {
	if c.host.opts.OAuth == nil || !c.Server.IsHTTP() || ownCredential(a.url, a.headers) {
		return nil
	}
	return &oauthHandler{c: c, key: GrantKey{Resource: config.CanonicalURL(a.url), Account: c.Account.Name}}
}

// ownCredential reports whether an HTTP server is reached with a
// credential of the config's own: an Authorization header, or URL userinfo
// (HTTP Basic). Such a context never signs in.
func ownCredential(rawURL string, headers ...map[string]string) bool {
	for _, hs := range headers {
		for k := range hs {
			if http.CanonicalHeaderKey(k) == "Authorization" {
				return true
			}
		}
	}
	u, err := url.Parse(rawURL)
	return err == nil && u.User != nil
}

// current returns the connection's grant and its token source, loading
// them from the store once.
func (o *oauthHandler) current(ctx context.Context) (*Grant, *grantSource, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.loaded {
		g, err := o.c.host.tokens().Load(ctx, o.key)
		if err != nil {
			return nil, nil, newError(KindUsage, err, "%s: the kept sign-ins cannot be read: %v", o.c, err)
		}
		o.loaded = true
		if g != nil && g.Token != nil {
			o.grant, o.source = g, o.sourceFor(g)
		}
	}
	return o.grant, o.source, nil
}

// reload makes the next use load the stored grant again: another
// connection, or another process, signed the account in.
func (o *oauthHandler) reload() {
	o.mu.Lock()
	o.loaded, o.grant, o.source = false, nil, nil
	o.mu.Unlock()
}

// partition mixes the grant into the context's fingerprint.
func (o *oauthHandler) partition(ctx context.Context, base string) (string, error) {
	g, _, err := o.current(ctx)
	if err != nil {
		return "", err
	}
	id := "not signed in"
	if g != nil {
		id = "grant " + g.ID
	}
	sum := sha256.Sum256([]byte(base + "\x00" + id))
	return hex.EncodeToString(sum[:16]), nil
}

// TokenSource implements auth.OAuthHandler. A grant's token goes only
// over TLS or to loopback.
func (o *oauthHandler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	_, src, err := o.current(ctx)
	if err != nil || src == nil {
		return nil, err
	}
	if err := refuseCleartext(o.c.Server.Name, o.key.Resource); err != nil {
		return nil, err
	}
	return src, nil
}

// live checks that the grant, if there is one, still authenticates as far
// as the host can tell without the server: its access token is valid or
// refreshes. A refresh answered invalid_grant ends the grant.
func (o *oauthHandler) live(ctx context.Context) error {
	g, src, err := o.current(ctx)
	if err != nil || g == nil {
		return err // not signed in: a context of its own, which the server judges
	}
	if _, err := src.Token(); err != nil {
		if invalidGrant(err) {
			o.revoke(ctx, "the sign-in was revoked or expired (invalid_grant)")
			return o.signInError("the sign-in was revoked or has expired")
		}
		if errors.As(err, new(*Error)) {
			return err
		}
		return classify(err, "refreshing the sign-in to "+o.c.Server.Name, "", 0)
	}
	return nil
}

// Authorize implements auth.OAuthHandler: it runs after a 401, or a 403.
// A refusal of the host's own is recorded in the request's status, where
// it outweighs what go-sdk meets next (it falls back from server/discover
// to initialize on any error).
func (o *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	err := o.authorize(ctx, req, resp)
	if he := (*Error)(nil); errors.As(err, &he) {
		statusOf(ctx).refused(err)
	}
	return err
}

func (o *oauthHandler) authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if err := refuseCleartext(o.c.Server.Name, req.URL.String()); err != nil {
		return err
	}
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if resp.StatusCode == http.StatusForbidden {
		if challengeError(challenges) != "insufficient_scope" {
			return nil // not for sign-in to fix: the retry gets the same 403
		}
		o.mu.Lock()
		o.stepUps++
		n := o.stepUps
		o.mu.Unlock()
		if n > maxStepUps {
			return o.stepUpRefused(challenges)
		}
		return o.signIn(ctx, req, resp)
	}
	g, src, err := o.current(ctx)
	if err != nil {
		return err
	}
	if g == nil {
		return o.signIn(ctx, req, resp)
	}
	if to := o.movedTo(ctx, req, challenges, g); to != "" {
		return o.signInAt(ctx, req, resp, to, g)
	}
	// The access token was refused. Another process's, or a refreshed one,
	// may do; if not, the grant no longer authenticates: its private
	// entries go, and the person signs in again (never silently as whoever
	// the browser is now signed in as).
	if err := src.refresh(bearerOf(req)); err == nil {
		return nil
	} else if !invalidGrant(err) && errors.As(err, new(*Error)) {
		return err
	}
	o.revoke(ctx, "the server refused the sign-in (401) and a refresh could not fix it")
	return o.signInError("the server no longer accepts the sign-in")
}

// bearerOf is the bearer token a request carried, or "".
func bearerOf(req *http.Request) string {
	scheme, tok, _ := strings.Cut(req.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// stepUpRefused is the error after the step-up limit: the server still
// wants scopes the sign-ins did not get.
func (o *oauthHandler) stepUpRefused(challenges []oauthex.Challenge) error {
	want := ""
	for _, c := range challenges {
		if s := c.Params["scope"]; s != "" {
			want = "; it asks for " + clip(s)
		}
	}
	e := newError(KindForbidden, nil, "%s: the server still refuses this account after %d sign-ins for more scopes (HTTP 403 insufficient_scope%s)",
		o.c, maxStepUps, want)
	e.HTTPStatus = http.StatusForbidden
	e.Next = "The authorization server does not grant what the server asks for; ask whoever runs them for those scopes."
	return e
}

// signInError is the Unauthorized error that asks the person to sign in,
// naming the action.
func (o *oauthHandler) signInError(why string) error { return signInNeeded(o.c, why) }

// signInNeeded is the Unauthorized error of c that asks the person to
// sign in, saying why.
func signInNeeded(c *Conn, why string) *Error {
	e := newError(KindUnauthorized, ErrSignInNeeded, "%s: %s", c, why)
	e.HTTPStatus = http.StatusUnauthorized
	e.Next = signInHint(c.Server.Name, "Sign in to read this")
	return e
}

// signInHint names the next step, and how to take it at server.
func signInHint(server, step string) string {
	return fmt.Sprintf("%s: Sign in on the card of %s in the app, or run attachectl login %s.", step, server, server)
}

// revoke ends the connection's grant: its private entries are purged in
// one transaction and the stored grant is deleted, unless another process
// has put a new one there meanwhile.
func (o *oauthHandler) revoke(ctx context.Context, why string) {
	o.mu.Lock()
	g := o.grant
	o.grant, o.source, o.loaded = nil, nil, true
	o.mu.Unlock()
	if g == nil {
		return
	}
	h := o.c.host
	h.log.Info("a sign-in ended", "server", o.c.Server.Name, "account", o.c.Account.Name, "why", why)
	o.purgeGrant(ctx, g)
	if err := h.deleteGrantIf(ctx, o.key, g.ID); err != nil {
		h.log.Warn("deleting a revoked grant failed", "server", o.c.Server.Name, "err", err)
	}
}

// purgeGrant purges the private entries of g's partition.
func (o *oauthHandler) purgeGrant(ctx context.Context, g *Grant) {
	h := o.c.host
	if auth := o.c.resolved(); auth != nil && h.opts.Cache != nil {
		sum := sha256.Sum256([]byte(auth.fingerprint + "\x00grant " + g.ID))
		if _, err := h.opts.Cache.Purge(ctx, CacheFilter{Server: o.c.identity, Partition: hex.EncodeToString(sum[:16]), PrivateOnly: true}); err != nil {
			h.log.Warn("purging a revoked grant's entries failed", "server", o.c.Server.Name, "err", err)
		}
	}
}

// forget drops the stored grant (logout).
func (o *oauthHandler) forget(ctx context.Context) error {
	o.mu.Lock()
	o.grant, o.source, o.loaded = nil, nil, true
	o.mu.Unlock()
	return o.c.host.tokens().Delete(ctx, o.key)
}

func challengeError(cs []oauthex.Challenge) string {
	for _, c := range cs {
		if e := c.Params["error"]; e != "" {
			return e
		}
	}
	return ""
}

// oauthHTTPClient is the client for metadata, registration and token
// requests: the host's transport, without any server's credentials.
func (h *Host) oauthHTTPClient() *http.Client {
	return &http.Client{Transport: h.opts.HTTPTransport, Timeout: h.opts.RequestTimeout}
}

// oauthContext carries that client to golang.org/x/oauth2.
func (h *Host) oauthContext() context.Context {
	return context.WithValue(context.Background(), oauth2.HTTPClient, h.oauthHTTPClient())
}

// resolved returns the connection's authorization context, if resolved.
func (c *Conn) resolved() *authContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.auth
}

// resolvedSecret expands a pre-registered client's secret, which may be a
// placeholder, and records it as a secret of the context.
func (c *Conn) resolvedSecret(v string) string {
	a := c.resolved()
	if a == nil || v == "" {
		return v
	}
	return a.expandSecret(v)
}

// Grants returns every kept sign-in, for people to see (never the tokens).
func (h *Host) Grants(ctx context.Context) ([]Grant, error) {
	return h.tokens().List(ctx)
}

// CanSignIn reports whether account ("" for the first) of sc would sign
// in when the server asks: OAuth is on in this host, sc is an HTTP server,
// and the account sends no Authorization header or URL userinfo of its own.
func (h *Host) CanSignIn(sc ServerConfig, account string) bool {
	acct, err := sc.Account(account)
	return err == nil && h.opts.OAuth != nil && sc.IsHTTP() && !ownCredential(sc.URL, sc.Headers, acct.Headers)
}

// GrantOf returns the kept sign-in of account ("" for the first) at the
// HTTP server sc, or nil. The store may be the OS keyring: call it off any
// thread that must not block.
func (h *Host) GrantOf(ctx context.Context, sc ServerConfig, account string) (*Grant, error) {
	acct, err := sc.Account(account)
	if err != nil || !sc.IsHTTP() {
		return nil, err
	}
	return h.tokens().Load(ctx, GrantKey{Resource: config.CanonicalURL(sc.URL), Account: acct.Name})
}

// Login signs account in to an HTTP server: it logs the account out (an
// earlier grant, its private entries and its connections go), then
// connects, which runs the sign-in when the server asks for one. It is the
// person asking: it clears what ended the last sign-in (a sign-out, a
// cancel). It returns the new grant.
func (h *Host) Login(ctx context.Context, sc ServerConfig, account string) (*Grant, error) {
	switch {
	case h.opts.OAuth == nil:
		return nil, newError(KindUsage, nil, "signing in is off in this host")
	case !sc.IsHTTP():
		return nil, newError(KindUsage, nil, "%s is a stdio server: its credentials come from the config, not a sign-in", sc.Name)
	}
	if err := refuseCleartext(sc.Name, sc.URL); err != nil {
		return nil, err
	}
	if _, err := sc.Account(account); err != nil {
		return nil, err
	}
	if err := h.logout(ctx, sc, account); err != nil {
		return nil, err
	}
	if k, ok := grantKeyOf(sc, account); ok {
		h.signIns.allow(k)
	}
	ctx = MaySignIn(ctx)
	c, err := h.ConnFor(sc, account)
	if err != nil {
		return nil, err
	}
	if _, err := c.session(ctx); err != nil {
		// The person may have taken longer than the connect timeout: the
		// grant is kept all the same, so connect again with it.
		o := c.oauthOf()
		if o == nil {
			return nil, err
		}
		if g, _, _ := o.current(ctx); g == nil {
			return nil, err
		}
		if _, err := c.session(ctx); err != nil {
			return nil, err
		}
	}
	return loginGrant(ctx, c, sc)
}

// loginGrant is the grant a Login's connection got.
func loginGrant(ctx context.Context, c *Conn, sc ServerConfig) (*Grant, error) {
	o := c.oauthOf()
	if o == nil {
		return nil, newError(KindUsage, nil, "%s sends its own Authorization header; there is nothing to sign in to", c)
	}
	g, _, err := o.current(ctx)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, newError(KindUsage, nil, "%s did not ask for a sign-in: it serves this account without one", sc.Name)
	}
	return g, nil
}
