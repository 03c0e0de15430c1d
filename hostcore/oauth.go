package hostcore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/attache/attache/hostcore/config"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Signing in to servers that follow the MCP authorization spec. The flow
// itself (protected resource metadata, authorization server metadata,
// client registration, PKCE S256, RFC 8707 resource, the RFC 9207 iss
// check, step-up scopes) is go-sdk's auth.AuthorizationCodeHandler over
// golang.org/x/oauth2. The host adds what a desktop host needs around it: a
// loopback redirect listener (RFC 8252), grants kept between runs in a
// TokenStore, refresh that persists, and the grant as the authorization
// context: a connection signed in through OAuth has the partition of its
// grant, which a refresh keeps and a new sign-in replaces.

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
	// abandoned says why a sign-in of this connection ended without one
	// (the person canceled it, or let it time out); "" while none has.
	// Later requests that need a sign-in then fail at once, instead of
	// asking again: the reads that wait on the same connect, and the
	// watcher's, would otherwise put the page back up as soon as the
	// person closed it. A new sign-in (Login) opens a new connection.
	abandoned string
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
			return nil, nil, fmt.Errorf("loading the sign-in of %s: %w", o.c, err)
		}
		o.loaded = true
		if g != nil && g.Token != nil {
			o.grant, o.source = g, o.sourceFor(g, g.Token)
		}
	}
	return o.grant, o.source, nil
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

// TokenSource implements auth.OAuthHandler.
func (o *oauthHandler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	_, src, err := o.current(ctx)
	if err != nil || src == nil {
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
		return classify(err, "refreshing the sign-in to "+o.c.Server.Name, "", 0)
	}
	return nil
}

// Authorize implements auth.OAuthHandler: it runs after a 401, or a 403.
func (o *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
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
			return fmt.Errorf("the server still wants more scopes after %d step-up sign-ins", maxStepUps)
		}
		return o.signIn(ctx, req, resp)
	}
	g, src, err := o.current(ctx)
	if err != nil {
		return err
	}
	if g != nil {
		// The access token was refused. A refresh may fix that; if not, the
		// grant no longer authenticates: its private entries go, and the
		// person signs in again (never silently as whoever the browser is
		// now signed in as).
		if err := src.refresh(); err == nil {
			return nil
		}
		o.revoke(ctx, "the server refused the sign-in (401) and a refresh could not fix it")
		return o.signInError("the server no longer accepts the sign-in")
	}
	return o.signIn(ctx, req, resp)
}

// signInError is the Unauthorized error that asks the person to sign in.
func (o *oauthHandler) signInError(why string) error {
	e := newError(KindUnauthorized, ErrSignInNeeded, "%s: %s; sign in again (attachectl login %s, or Sign in in the app)", o.c, why, o.c.Server.Name)
	e.HTTPStatus = http.StatusUnauthorized
	return e
}

// revoke ends the connection's grant: its private entries are purged in
// one transaction and the stored grant is deleted.
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
	if auth := o.c.resolved(); auth != nil && h.opts.Cache != nil {
		sum := sha256.Sum256([]byte(auth.fingerprint + "\x00grant " + g.ID))
		if _, err := h.opts.Cache.Purge(ctx, CacheFilter{Server: o.c.identity, Partition: hex.EncodeToString(sum[:16]), PrivateOnly: true}); err != nil {
			h.log.Warn("purging a revoked grant's entries failed", "server", o.c.Server.Name, "err", err)
		}
	}
	if err := h.tokens().Delete(ctx, o.key); err != nil {
		h.log.Warn("deleting a revoked grant failed", "server", o.c.Server.Name, "err", err)
	}
}

// forget drops the stored grant (logout).
func (o *oauthHandler) forget(ctx context.Context) error {
	o.mu.Lock()
	o.grant, o.source, o.loaded = nil, nil, true
	o.mu.Unlock()
	return o.c.host.tokens().Delete(ctx, o.key)
}

// signIn runs the authorization code flow with a loopback redirect.
func (o *oauthHandler) signIn(ctx context.Context, req *http.Request, resp *http.Response) error {
	// A person in a browser may take longer than a connect or a request
	// may: the sign-in (the page, the wait and the code exchange) keeps to
	// its own timeout, not the request's deadline, but still ends when the
	// request is canceled. The request itself may then have run out of
	// time; the grant is kept, and the next connect uses it (Login
	// connects again).
	ctx, stop := patient(ctx)
	defer stop()
	opts := o.c.host.opts.OAuth
	if opts.Present == nil {
		return o.signInError("the server asks for a sign-in")
	}
	o.mu.Lock()
	abandoned := o.abandoned
	o.mu.Unlock()
	if abandoned != "" {
		return o.signInError(abandoned)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening for the sign-in redirect: %w", err)
	}
	defer ln.Close()
	// The page stays up until the sign-in ends, the code exchanged and
	// the grant kept, so that what shows it can then show who signed in.
	shown, endShown := context.WithCancel(ctx)
	defer endShown()
	redirect := "http://" + ln.Addr().String() + "/callback"
	var issuer string
	name := opts.ClientName
	if name == "" {
		name = "Attaché"
	}
	var granted []string
	if g, _, _ := o.current(ctx); g != nil {
		granted = g.Scopes
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:           redirect,
		RequestRefreshToken:   true,
		AcceptUnadvertisedIss: true,
		Client:                o.c.host.oauthHTTPClient(),
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			res, err := o.awaitRedirect(ctx, shown, ln, args.URL)
			if err == nil {
				issuer = res.Iss
				if issuer == "" {
					if u, err := url.Parse(args.URL); err == nil {
						issuer = u.Scheme + "://" + u.Host
					}
				}
			}
			return res, err
		},
		// A step-up keeps what was granted before.
		ScopeFilter: func(discovered []string) []string { return unionScopes(granted, discovered) },
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return o.granted(ctx, cfg, tok, issuer)
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: name, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}},
	}
	if pre := o.c.Server.OAuth; pre != nil && pre.ClientID != "" {
		creds := &oauthex.ClientCredentials{ClientID: pre.ClientID}
		if secret := o.c.resolvedSecret(pre.ClientSecret); secret != "" {
			creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: secret}
		}
		cfg.PreregisteredClient = creds
		if len(pre.Scopes) > 0 {
			cfg.ScopeFilter = func(discovered []string) []string { return unionScopes(granted, pre.Scopes) }
		}
	} else if opts.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: opts.ClientMetadataURL}
	}
	handler, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return err
	}
	if err := handler.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("signing in to %s: %w", o.c.Server.Name, err)
	}
	return nil
}

// granted records a new grant (NewTokenSource of the code handler).
func (o *oauthHandler) granted(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token, issuer string) (oauth2.TokenSource, error) {
	g := &Grant{ID: rand.Text(), Server: o.c.Server.Name, Resource: o.key.Resource, Account: o.key.Account,
		Issuer: issuer, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, TokenURL: cfg.Endpoint.TokenURL,
		AuthStyle: cfg.Endpoint.AuthStyle, Scopes: tokenScopes(tok, cfg.Scopes), SignedInAt: o.c.host.opts.Now.now(), Token: tok}
	if err := o.c.host.tokens().Save(ctx, g); err != nil {
		return nil, fmt.Errorf("keeping the sign-in: %w", err)
	}
	src := o.sourceFor(g, tok)
	o.mu.Lock()
	o.grant, o.source, o.loaded = g, src, true
	o.mu.Unlock()
	o.c.host.log.Info("signed in", "server", o.c.Server.Name, "account", o.c.Account.Name, "issuer", issuer, "scopes", g.Scopes)
	return src, nil
}

// awaitRedirect presents the authorization URL (for as long as shown
// lasts) and waits for the browser's redirect to the loopback listener,
// the timeout, ctx, or an error from Present.
func (o *oauthHandler) awaitRedirect(ctx, shown context.Context, ln net.Listener, authURL string) (*auth.AuthorizationResult, error) {
	opts := o.c.host.opts.OAuth
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	got := make(chan url.Values, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		msg := "You are signed in to " + o.c.Server.Name + ". You may close this tab."
		if e := q.Get("error"); e != "" {
			msg = "The sign-in to " + o.c.Server.Name + " did not succeed (" + e + "). You may close this tab."
		}
		fmt.Fprintf(w, "<!doctype html><title>Attaché</title><p style=\"font:16px sans-serif;margin:3em\">%s</p>", html.EscapeString(msg))
		if f, ok := w.(http.Flusher); ok {
			f.Flush() // the page reaches the browser before the wait ends
		}
		select {
		case got <- q:
		default:
		}
	})}
	go srv.Serve(ln)
	defer func() {
		// Let the redirect's page finish before the listener goes: a
		// closed connection would show the person an error for a sign-in
		// that worked.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}()
	// Present runs beside the wait: it may hold the page up, and the
	// redirect may come while it does.
	presented := make(chan error, 1)
	page := SignInPage{Server: o.c.Server.Name, Account: o.c.Account.Name, URL: authURL}
	go func() { presented <- opts.Present(shown, page) }()
	for {
		select {
		case err := <-presented:
			if errors.Is(err, context.Canceled) {
				return nil, o.canceled(err)
			} else if err != nil {
				o.abandon("the sign-in could not be shown")
				return nil, fmt.Errorf("presenting the sign-in page: %w", err)
			}
			presented = nil // shown; keep waiting
		case q := <-got:
			if e := q.Get("error"); e != "" {
				return nil, fmt.Errorf("the authorization server said %s: %s", e, q.Get("error_description"))
			}
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				why := fmt.Sprintf("no sign-in came within %s", timeout)
				o.abandon(why)
				return nil, o.signInError(why)
			}
			return nil, o.canceled(ctx.Err())
		}
	}
}

// patient returns a context with ctx's values and cancellation but not
// its deadline.
func patient(ctx context.Context) (context.Context, context.CancelFunc) {
	p, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	unhook := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel(ctx.Err())
		}
	})
	return p, func() { unhook(); cancel(nil) }
}

const signInCanceled = "the sign-in was canceled"

// canceled is the error of a sign-in that the person or the caller
// canceled. It carries its kind, so that the 401 that started the sign-in
// does not make it read as refused credentials.
func (o *oauthHandler) canceled(cause error) error {
	o.abandon(signInCanceled)
	return newError(KindCanceled, cause, "%s: %s", o.c, signInCanceled)
}

// cancelReason says what a canceled connect was doing: "the sign-in was
// canceled" when a sign-in of o's ended that way, else "canceled". o may
// be nil.
func (o *oauthHandler) cancelReason() string {
	if o != nil {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.abandoned == signInCanceled {
			return signInCanceled
		}
	}
	return "canceled"
}

// abandon records why a sign-in ended without one.
func (o *oauthHandler) abandon(why string) {
	o.mu.Lock()
	o.abandoned = why
	o.mu.Unlock()
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
// connects, which runs the sign-in when the server asks for one. It returns
// the new grant.
func (h *Host) Login(ctx context.Context, sc ServerConfig, account string) (*Grant, error) {
	switch {
	case h.opts.OAuth == nil:
		return nil, newError(KindUsage, nil, "signing in is off in this host")
	case !sc.IsHTTP():
		return nil, newError(KindUsage, nil, "%s is a stdio server: its credentials come from the config, not a sign-in", sc.Name)
	}
	if err := h.Logout(ctx, sc, account); err != nil {
		return nil, err
	}
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
