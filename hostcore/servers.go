package hostcore

import (
	"context"
	"errors"
	"maps"
	"os"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/signin"
)

// The Host owns the servers' lifetime as it owns their connections: adding,
// replacing and removing a server, and logging an account out, go through
// it, so that no connection outlives the config entry or the credentials it
// was made with, and no private entry outlives its authorization context.

// OnServersChanged registers f to be told when the host's servers change
// (added, replaced, removed) or a connection's state does (connecting,
// connected, failed, lost, closed), and returns the function that
// unregisters it. f is called on the goroutine that made the change, with
// no lock held, and must not block (a Fyne front end hands it to fyne.Do);
// it reads what changed from Servers and Conn.Info.
func (h *Host) OnServersChanged(f func()) (unregister func()) { return h.onServers.Add(f) }

func (h *Host) serversChanged() {
	for _, f := range h.onServers.All() {
		f()
	}
}

// AddServer adds a server to the config and saves it. A server of that
// name must not exist yet.
func (h *Host) AddServer(ctx context.Context, sc config.ServerConfig) error {
	defer h.serversChanged()
	if _, err := h.cfg.Find(sc.Name, h.opts.Builtin...); err == nil {
		return newError(fault.KindUsage, nil, "a server named %q already exists", sc.Name)
	}
	if err := h.cfg.Upsert(sc); err != nil {
		return err
	}
	return h.cfg.Save()
}

// ReplaceServer stores a changed server entry in the config and saves it.
// Every account whose credentials changed, or that is gone, is logged out:
// its connections closed and its private partitions purged, since a
// different credential is a different authorization context. A server that
// now starts differently (another command or URL) logs out every account.
// A server that now runs, points or authenticates differently for any
// account loses every "Always" grant given to it (see Consent).
func (h *Host) ReplaceServer(ctx context.Context, sc config.ServerConfig) error {
	defer h.serversChanged()
	old, findErr := h.cfg.Find(sc.Name, h.opts.Builtin...)
	if err := h.cfg.Upsert(sc); err != nil {
		return err
	}
	var errs []error
	if findErr == nil && !sameGrantIdentity(old, sc) {
		errs = append(errs, h.consent.ForgetServer(ctx, sc.Name))
	}
	if findErr == nil {
		for _, name := range old.AccountNames() {
			acct, _ := old.Account(name)
			now, err := sc.Account(name)
			if err != nil || !sameCredentials(acct, now) || old.Identity() != sc.Identity() ||
				credentials(old, acct) != credentials(sc, now) {
				errs = append(errs, h.logout(ctx, old, name))
				defer h.contextEnded(ContextEnd{Server: sc.Name, Account: name, Reason: EndChanged})
			}
		}
	}
	errs = append(errs, h.cfg.Save())
	return errors.Join(errs...)
}

// RemoveServer removes a configured server: every connection to it is
// closed for good, every cache entry of it purged, every "Always" grant
// given to it forgotten, and the config saved.
func (h *Host) RemoveServer(ctx context.Context, name string) error {
	defer h.serversChanged()
	sc, err := h.cfg.Find(name, h.opts.Builtin...)
	if err != nil {
		return err
	}
	if !h.cfg.Remove(name) {
		return newError(fault.KindUsage, nil, "%q is not in the config (built-in and imported servers are removed where they are defined)", name)
	}
	errs := []error{h.logoutAll(ctx, sc), h.consent.ForgetServer(ctx, name)}
	if h.opts.Cache != nil {
		_, err := h.opts.Cache.Purge(ctx, CacheFilter{Server: sc.Identity()})
		errs = append(errs, err)
	}
	errs = append(errs, h.cfg.Save())
	h.contextEnded(ContextEnd{Server: name, Reason: EndRemoved})
	return errors.Join(errs...)
}

// Logout ends an account's sessions on a server for good, forgets the
// VS Code input values it was given, and purges its private cache entries
// in one transaction per partition: those of every authorization context
// its connections used, and every entry stored under its name. No watcher
// or borrower can bring the closed connections back; the next use of the
// account through the Host starts afresh, asking for inputs again.
//
// An account that signs in (OAuth) has signed out: a wait for its sign-in
// ends, and no request signs it in again until Login; its closed
// connections say "you signed out; Sign in to read this".
func (h *Host) Logout(ctx context.Context, server config.ServerConfig, account string) error {
	acct, err := server.Account(account)
	if err != nil {
		return err
	}
	if k, ok := signin.KeyOf(server, acct.Name); ok && h.signIns.CanSignIn(server, acct.Name) {
		h.signIns.SignOut(k)
		for _, c := range h.connsOf(server.Name, acct.Name) {
			c.closeBecause(signin.Needed(c.String(), c.Server.Name, signin.SignedOut))
		}
	}
	err = h.logout(ctx, server, account)
	h.contextEnded(ContextEnd{Server: server.Name, Account: acct.Name, Reason: EndLoggedOut})
	return err
}

// connsOf returns the open connections of account at server.
func (h *Host) connsOf(server, account string) []*Conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*Conn
	for k, c := range h.conns {
		if k.server == server && k.account == account {
			out = append(out, c)
		}
	}
	return out
}

func (h *Host) logout(ctx context.Context, sc config.ServerConfig, account string) error {
	if account == "" {
		account = sc.AccountNames()[0]
	}
	closed := h.closeConns(func(k connKey) bool { return k.server == sc.Name && k.account == account })
	var errs []error
	for _, c := range closed {
		c.tap.Clear() // the record of the context goes with it: it holds its bodies
		if err := h.purgeContext(ctx, c); err != nil {
			errs = append(errs, err)
		}
		if o := c.oauthOf(); o != nil {
			errs = append(errs, o.Forget(ctx))
		}
	}
	if sc.IsHTTP() {
		errs = append(errs, h.signIns.Tokens().Delete(ctx, signin.GrantKey{Resource: config.CanonicalURL(sc.URL), Account: account}))
	}
	h.mu.Lock()
	delete(h.inputs, sc.Name)
	h.mu.Unlock()
	if h.opts.Cache == nil {
		return errors.Join(errs...)
	}
	if _, err := h.opts.Cache.Purge(ctx, CacheFilter{Server: sc.Identity(), Account: account, PrivateOnly: true}); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// logoutAll logs every account of sc out.
func (h *Host) logoutAll(ctx context.Context, sc config.ServerConfig) error {
	var errs []error
	for _, name := range sc.AccountNames() {
		errs = append(errs, h.logout(ctx, sc, name))
	}
	h.closeConns(func(k connKey) bool { return k.server == sc.Name })
	return errors.Join(errs...)
}

// closeConns closes for good, and forgets, the connections whose keys
// match, and returns them.
func (h *Host) closeConns(match func(connKey) bool) []*Conn {
	h.mu.Lock()
	var out []*Conn
	for k, c := range h.conns {
		if match(k) {
			out = append(out, c)
			delete(h.conns, k)
		}
	}
	h.mu.Unlock()
	for _, c := range out {
		c.Close()
	}
	return out
}

// purgeContext purges the private entries of c's authorization context on
// its server, in one transaction: after a 401 the context no longer
// authenticates, and after a logout it is gone.
func (h *Host) purgeContext(ctx context.Context, c *Conn) error {
	if h.opts.Cache == nil || c.resolved() == nil {
		return nil
	}
	partition, err := c.Partition(ctx)
	if err != nil {
		return err
	}
	n, err := h.opts.Cache.Purge(ctx, CacheFilter{Server: c.identity, Partition: partition, PrivateOnly: true})
	if err != nil {
		h.log.Warn("purging a context's private entries failed", "server", c.Server.Name, "account", c.Account.Name, "err", err)
		return err
	}
	h.log.Info("purged a context's private entries", "server", c.Server.Name, "account", c.Account.Name, "entries", n)
	return nil
}

// sameGrantIdentity reports whether every account of old keeps its grant
// identity in now (see consent.Identity).
func sameGrantIdentity(old, now config.ServerConfig) bool {
	for _, name := range old.AccountNames() {
		a, _ := old.Account(name)
		b, err := now.Account(name)
		if err != nil || consent.Identity(old, a, os.Getenv) != consent.Identity(now, b, os.Getenv) {
			return false
		}
	}
	return true
}

func sameCredentials(a, b config.Account) bool {
	return maps.Equal(a.Env, b.Env) && maps.Equal(a.Headers, b.Headers)
}

// AddImport records another host's config file as a source of servers and
// saves the config.
func (h *Host) AddImport(ctx context.Context, src config.ImportSource) ([]config.ServerConfig, error) {
	servers, err := h.cfg.AddImport(ctx, src)
	if err != nil {
		return nil, err
	}
	return servers, h.cfg.Save()
}
