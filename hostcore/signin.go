package hostcore

import (
	"context"
	"errors"
	"net/http"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/signin"
)

// Signing in to servers that follow the MCP authorization spec is package
// signin's. The host gives each HTTP connection that presents no
// credential of its own a signin.Handler, which go-sdk's transport asks
// for tokens; the connection's cache partition is its grant's, which a
// refresh keeps and a new sign-in replaces. What is here is the glue: the
// handler of a connection, and the Host's methods over the sign-ins.

// newOAuthHandler returns the handler of an HTTP connection that presents
// no Authorization header of its own, or nil when OAuth is off.
func newOAuthHandler(c *Conn, a *authContext) *signin.Handler {
	if !c.Server.IsHTTP() || signin.OwnCredential(a.url, a.headers) {
		return nil
	}
	return c.host.signIns.Handler(signin.Conn{
		Name: c.String(), Server: c.Server.Name, Account: c.Account.Name, URL: a.url,
		Client: c.Server.OAuth, Secret: func(v string) string { return expandSecretOf(a, v) },
		Purge: func(ctx context.Context, grantID string) { c.purgeGrant(ctx, a, grantID) },
	})
}

// expandSecretOf expands a pre-registered client's secret in a, which
// records it as a secret of the context.
func expandSecretOf(a *authContext, v string) string {
	if v == "" {
		return v
	}
	return a.expandSecret(v)
}

// purgeGrant purges the private entries of the partition of the grant id,
// signed in over the context a.
func (c *Conn) purgeGrant(ctx context.Context, a *authContext, grantID string) {
	h := c.host
	if h.opts.Cache == nil {
		return
	}
	f := CacheFilter{Server: c.identity, Partition: signin.Partition(a.fingerprint, grantID), PrivateOnly: true}
	if _, err := h.opts.Cache.Purge(ctx, f); err != nil {
		h.log.Warn("purging a revoked grant's entries failed", "server", c.Server.Name, "err", err)
	}
}

// oauthTransport is a connection's handler as go-sdk's transport sees it:
// a refusal of the host's own is recorded in the request's status, where
// it outweighs what go-sdk meets next (it falls back from server/discover
// to initialize on any error).
type oauthTransport struct{ *signin.Handler }

// Authorize implements auth.OAuthHandler.
func (o oauthTransport) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	err := o.Handler.Authorize(ctx, req, resp)
	if he := (*Error)(nil); errors.As(err, &he) {
		statusOf(ctx).refused(err)
	}
	return err
}

// grantLive checks that c's grant, if it has one, still authenticates
// (see signin.Handler.Live), in the host's terms.
func (c *Conn) grantLive(ctx context.Context, o *signin.Handler) error {
	err := o.Live(ctx)
	if err == nil || errors.As(err, new(*Error)) {
		return err
	}
	return classify(err, "refreshing the sign-in to "+c.Server.Name, "", 0)
}

// resolved returns the connection's authorization context, if resolved.
func (c *Conn) resolved() *authContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.auth
}

// Grants returns every kept sign-in, for people to see (never the tokens).
func (h *Host) Grants(ctx context.Context) ([]signin.Grant, error) {
	return h.signIns.Tokens().List(ctx)
}

// CanSignIn reports whether account ("" for the first) of sc would sign
// in when the server asks: OAuth is on in this host, sc is an HTTP server,
// and the account sends no Authorization header or URL userinfo of its own.
func (h *Host) CanSignIn(sc ServerConfig, account string) bool {
	acct, err := sc.Account(account)
	return err == nil && h.signIns.On() && sc.IsHTTP() && !signin.OwnCredential(sc.URL, sc.Headers, acct.Headers)
}

// GrantOf returns the kept sign-in of account ("" for the first) at the
// HTTP server sc, or nil. The store may be the OS keyring: call it off any
// thread that must not block.
func (h *Host) GrantOf(ctx context.Context, sc ServerConfig, account string) (*signin.Grant, error) {
	acct, err := sc.Account(account)
	if err != nil || !sc.IsHTTP() {
		return nil, err
	}
	return h.signIns.Tokens().Load(ctx, signin.GrantKey{Resource: config.CanonicalURL(sc.URL), Account: acct.Name})
}

// Login signs account in to an HTTP server: it logs the account out (an
// earlier grant, its private entries and its connections go), then
// connects, which runs the sign-in when the server asks for one. It is the
// person asking: it clears what ended the last sign-in (a sign-out, a
// cancel). It returns the new grant.
func (h *Host) Login(ctx context.Context, sc ServerConfig, account string) (*signin.Grant, error) {
	switch {
	case !h.signIns.On():
		return nil, newError(KindUsage, nil, "signing in is off in this host")
	case !sc.IsHTTP():
		return nil, newError(KindUsage, nil, "%s is a stdio server: its credentials come from the config, not a sign-in", sc.Name)
	}
	if err := signin.RefuseCleartext(sc.Name, sc.URL); err != nil {
		return nil, err
	}
	if _, err := sc.Account(account); err != nil {
		return nil, err
	}
	if err := h.logout(ctx, sc, account); err != nil {
		return nil, err
	}
	if k, ok := signin.KeyOf(sc, account); ok {
		h.signIns.Allow(k)
	}
	ctx = signin.MayStart(ctx)
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
		if g, _ := o.Grant(ctx); g == nil {
			return nil, err
		}
		if _, err := c.session(ctx); err != nil {
			return nil, err
		}
	}
	return loginGrant(ctx, c, sc)
}

// loginGrant is the grant a Login's connection got.
func loginGrant(ctx context.Context, c *Conn, sc ServerConfig) (*signin.Grant, error) {
	o := c.oauthOf()
	if o == nil {
		return nil, newError(KindUsage, nil, "%s sends its own Authorization header; there is nothing to sign in to", c)
	}
	g, err := o.Grant(ctx)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, newError(KindUsage, nil, "%s did not ask for a sign-in: it serves this account without one", sc.Name)
	}
	return g, nil
}

// SignInState returns where account's ("" for the first) sign-in at the
// HTTP server sc stands in this host.
func (h *Host) SignInState(sc ServerConfig, account string) signin.State {
	k, ok := signin.KeyOf(sc, account)
	if !ok {
		return signin.State{}
	}
	return h.signIns.State(k)
}

// CancelSignIn ends the sign-in of account ("" for the first) at sc that
// waits for the person, whoever started it (Sign in, or a read): the
// loopback listener closes, and every request waiting on it fails as
// canceled. Until the person signs in (Login), no request starts another.
func (h *Host) CancelSignIn(sc ServerConfig, account string) {
	if k, ok := signin.KeyOf(sc, account); ok {
		h.signIns.Cancel(k)
	}
}

// OnSignInChange registers f to run whenever an account's SignInState
// may have changed (a wait began or ended, a page was shown, an account
// signed out or moved), and returns the function that unregisters it. f
// runs on the host's goroutines and must not block.
func (h *Host) OnSignInChange(f func()) (unregister func()) { return h.signIns.OnChange(f) }
