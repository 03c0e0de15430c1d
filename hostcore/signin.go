package hostcore

import (
	"context"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
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
		Client: c.Server.OAuth, Secret: a.expandSecret,
		Purge:   func(ctx context.Context, grantID string) { c.purgeGrant(ctx, a, grantID) },
		Refused: func(ctx context.Context, err *fault.Error) { statusOf(ctx).refused(err) },
		Explain: func(err error) error { return classify(err, "refreshing the sign-in to "+c.Server.Name, "", 0) },
	})
}

// purgeGrant purges the private entries of the partition of the grant id,
// signed in over the context a.
func (c *Conn) purgeGrant(ctx context.Context, a *authContext, grantID string) {
	if c.host.opts.Cache == nil {
		return
	}
	f := CacheFilter{Server: c.identity, Partition: signin.Partition(a.fingerprint, grantID), PrivateOnly: true}
	if _, err := c.host.opts.Cache.Purge(ctx, f); err != nil {
		c.host.log.Warn("purging a revoked grant's entries failed", "server", c.Server.Name, "err", err)
	}
}

// resolved returns the connection's authorization context, if resolved.
func (c *Conn) resolved() *authContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.auth
}

// SignIns returns the host's sign-ins: the grants kept, where each
// account's sign-in stands, and how to cancel one (see signin.Keeper).
func (h *Host) SignIns() *signin.Keeper { return h.signIns }

// Login signs account ("" for the first) in to an HTTP server: it logs the
// account out (an earlier grant, its private entries and its connections
// go), then connects, which runs the sign-in when the server asks for one.
// It is the person asking: it clears what ended the last sign-in (a
// sign-out, a cancel). It returns the new grant.
func (h *Host) Login(ctx context.Context, sc config.ServerConfig, account string) (*signin.Grant, error) {
	var c *Conn
	connect := func(ctx context.Context) (*signin.Handler, error) {
		if c == nil {
			var err error
			if c, err = h.ConnFor(sc, account); err != nil {
				return nil, err
			}
		}
		_, err := c.session(ctx)
		return c.oauthOf(), err
	}
	logout := func(ctx context.Context) error { return h.logout(ctx, sc, account) }
	return h.signIns.Login(ctx, sc, account, logout, connect)
}
