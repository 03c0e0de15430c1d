package signin

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

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// A connection's handler: the grant it holds, the token source that
// refreshes it, and what it does after a 401 or a 403. A connection signed
// in through OAuth has the partition of its grant, which a refresh keeps
// and a new sign-in replaces.

// maxStepUps bounds step-up sign-ins (403 insufficient_scope) per
// connection, so that a server that never accepts the scopes it asks for
// cannot make the host ask for ever.
const maxStepUps = 2

// ErrNeeded is the cause of the Unauthorized error of a connection that
// has no usable grant: the person must sign in (again).
var ErrNeeded = errors.New("sign-in needed")

// Conn is the connection a Handler signs in for, as the handler sees it.
type Conn struct {
	// Name names the connection in messages ("server as account").
	Name string
	// Server and Account are the configured server's and account's names.
	Server, Account string
	// URL is the server's endpoint.
	URL string
	// Client is the client pre-registered with the server's authorization
	// server, or nil.
	Client *config.OAuthClient
	// Secret expands a pre-registered client's secret, which may be a
	// placeholder, and records it as a secret of the connection's context;
	// nil takes it as it is.
	Secret func(string) string
	// Purge purges the private entries of the partition of the grant id;
	// nil purges nothing.
	Purge func(ctx context.Context, grantID string)
	// Refused is told of a refusal of the host's own in Authorize, under
	// the request's ctx; nil ignores it.
	Refused func(ctx context.Context, err *fault.Error)
	// Explain gives a refresh's own error (the transport's, not a
	// *fault.Error) a kind; nil leaves it as it is.
	Explain func(err error) error
}

// Handler is a connection's auth.OAuthHandler: go-sdk's Streamable HTTP
// transport asks it for a token source for every request, and calls
// Authorize after a 401 or 403. It is safe for concurrent use.
type Handler struct {
	k   *Keeper
	c   Conn
	key GrantKey

	mu      sync.Mutex
	loaded  bool
	grant   *Grant
	source  *grantSource
	stepUps int
}

// Handler returns the handler of the HTTP connection c, which presents no
// Authorization header of its own (see OwnCredential), or nil when OAuth
// is off.
func (k *Keeper) Handler(c Conn) *Handler {
	if k.opts == nil {
		return nil
	}
	keep := func(v string) string { return v }
	if c.Secret == nil {
		c.Secret = keep
	}
	if c.Explain == nil {
		c.Explain = func(err error) error { return err }
	}
	return &Handler{k: k, c: c, key: GrantKey{Resource: config.CanonicalURL(c.URL), Account: c.Account}}
}

// OwnCredential reports whether an HTTP server is reached with a
// credential of the config's own: an Authorization header, or URL userinfo
// (HTTP Basic). Such a context never signs in.
func OwnCredential(rawURL string, headers ...map[string]string) bool {
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

// Grant returns the connection's grant, loading it from the store once;
// nil when the account is not signed in.
func (o *Handler) Grant(ctx context.Context) (*Grant, error) {
	g, _, err := o.current(ctx)
	return g, err
}

// current returns the connection's grant and its token source, loading
// them from the store once.
func (o *Handler) current(ctx context.Context) (*Grant, *grantSource, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.loaded {
		g, err := o.k.Tokens().Load(ctx, o.key)
		if err != nil {
			return nil, nil, fault.New(fault.KindUsage, err, "%s: the kept sign-ins cannot be read: %v", o.c.Name, err)
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
func (o *Handler) reload() {
	o.mu.Lock()
	o.loaded, o.grant, o.source = false, nil, nil
	o.mu.Unlock()
}

// Partition mixes the grant into base, the fingerprint of the
// connection's authorization context.
func (o *Handler) Partition(ctx context.Context, base string) (string, error) {
	g, _, err := o.current(ctx)
	if err != nil {
		return "", err
	}
	id := ""
	if g != nil {
		id = g.ID
	}
	return Partition(base, id), nil
}

// Partition is the cache partition of a context whose fingerprint is base,
// signed in with the grant id ("" when not signed in).
func Partition(base, grantID string) string {
	id := "not signed in"
	if grantID != "" {
		id = "grant " + grantID
	}
	sum := sha256.Sum256([]byte(base + "\x00" + id))
	return hex.EncodeToString(sum[:16])
}

// TokenSource implements auth.OAuthHandler. A grant's token goes only
// over TLS or to loopback.
func (o *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	_, src, err := o.current(ctx)
	if err != nil || src == nil {
		return nil, err
	}
	if err := RefuseCleartext(o.c.Server, o.key.Resource); err != nil {
		return nil, err
	}
	return src, nil
}

// Live checks that the grant, if there is one, still authenticates as far
// as the host can tell without the server: its access token is valid or
// refreshes. A refresh answered invalid_grant ends the grant.
func (o *Handler) Live(ctx context.Context) error {
	g, src, err := o.current(ctx)
	if err != nil || g == nil {
		return err // not signed in: a context of its own, which the server judges
	}
	if _, err := src.Token(); err != nil {
		if invalidGrant(err) {
			o.revoke(ctx, "the sign-in was revoked or expired (invalid_grant)")
			return o.signInError("the sign-in was revoked or has expired")
		}
		if errors.As(err, new(*fault.Error)) {
			return err
		}
		return o.c.Explain(err)
	}
	return nil
}

// Authorize implements auth.OAuthHandler: it runs after a 401, or a 403.
// A refusal of the host's own goes to Conn.Refused, which records it where
// it outweighs what go-sdk meets next (it falls back from server/discover
// to initialize on any error).
func (o *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	err := o.authorize(ctx, req, resp)
	if he := (*fault.Error)(nil); errors.As(err, &he) && o.c.Refused != nil {
		o.c.Refused(ctx, he)
	}
	return err
}

func (o *Handler) authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if err := RefuseCleartext(o.c.Server, req.URL.String()); err != nil {
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
	} else if !invalidGrant(err) && errors.As(err, new(*fault.Error)) {
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
func (o *Handler) stepUpRefused(challenges []oauthex.Challenge) error {
	want := ""
	for _, c := range challenges {
		if s := c.Params["scope"]; s != "" {
			want = "; it asks for " + fault.Clip(s)
		}
	}
	e := fault.New(fault.KindForbidden, nil, "%s: the server still refuses this account after %d sign-ins for more scopes (HTTP 403 insufficient_scope%s)",
		o.c.Name, maxStepUps, want)
	e.HTTPStatus = http.StatusForbidden
	e.Next = "The authorization server does not grant what the server asks for; ask whoever runs them for those scopes."
	return e
}

// signInError is the Unauthorized error that asks the person to sign in,
// naming the action.
func (o *Handler) signInError(why string) error { return Needed(o.c.Name, o.c.Server, why) }

// Needed is the Unauthorized error (cause ErrNeeded) of the connection
// name to server that asks the person to sign in, saying why.
func Needed(name, server, why string) *fault.Error {
	e := fault.New(fault.KindUnauthorized, ErrNeeded, "%s: %s", name, why)
	e.HTTPStatus = http.StatusUnauthorized
	e.Next = signInHint(server, "Sign in to read this")
	return e
}

// signInHint names the next step, and how to take it at server.
func signInHint(server, step string) string {
	return fmt.Sprintf("%s: Sign in on the card of %s in the app, or run attachectl login %s.", step, server, server)
}

// revoke ends the connection's grant: its private entries are purged in
// one transaction and the stored grant is deleted, unless another process
// has put a new one there meanwhile.
func (o *Handler) revoke(ctx context.Context, why string) {
	o.mu.Lock()
	g := o.grant
	o.grant, o.source, o.loaded = nil, nil, true
	o.mu.Unlock()
	if g == nil {
		return
	}
	o.k.env.Log.Info("a sign-in ended", "server", o.c.Server, "account", o.c.Account, "why", why)
	o.purgeGrant(ctx, g)
	if err := o.k.deleteGrantIf(ctx, o.key, g.ID); err != nil {
		o.k.env.Log.Warn("deleting a revoked grant failed", "server", o.c.Server, "err", err)
	}
}

// purgeGrant purges the private entries of g's partition.
func (o *Handler) purgeGrant(ctx context.Context, g *Grant) {
	if o.c.Purge != nil {
		o.c.Purge(ctx, g.ID)
	}
}

// Forget drops the stored grant (logout).
func (o *Handler) Forget(ctx context.Context) error {
	o.mu.Lock()
	o.grant, o.source, o.loaded = nil, nil, true
	o.mu.Unlock()
	return o.k.Tokens().Delete(ctx, o.key)
}

// InsufficientScope reports whether resp is a 403 that asks for more
// scope (RFC 6750 §3.1), and the scope it names.
func InsufficientScope(resp *http.Response) (string, bool) {
	if resp.StatusCode != http.StatusForbidden {
		return "", false
	}
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if c.Params["error"] == "insufficient_scope" {
			if sc := c.Params["scope"]; sc != "" {
				return sc, true
			}
			return "more", true
		}
	}
	return "", false
}

func challengeError(cs []oauthex.Challenge) string {
	for _, c := range cs {
		if e := c.Params["error"]; e != "" {
			return e
		}
	}
	return ""
}
