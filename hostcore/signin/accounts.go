package signin

import (
	"context"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
)

// The sign-ins of configured accounts, for the screens and commands: an
// account is named by its server's config and its name ("" for the
// server's first account).

// Grants returns every kept sign-in, for people to see (never the tokens).
func (k *Keeper) Grants(ctx context.Context) ([]Grant, error) { return k.Tokens().List(ctx) }

// CanSignIn reports whether account of sc would sign in when the server
// asks: signing in is on, sc is an HTTP server, and the account sends no
// Authorization header or URL userinfo of its own.
func (k *Keeper) CanSignIn(sc config.ServerConfig, account string) bool {
	acct, err := sc.Account(account)
	return err == nil && k.On() && sc.IsHTTP() && !OwnCredential(sc.URL, sc.Headers, acct.Headers)
}

// GrantOf returns the kept sign-in of account at the HTTP server sc, or
// nil. The store may be the OS keyring: call it off any thread that must
// not block.
func (k *Keeper) GrantOf(ctx context.Context, sc config.ServerConfig, account string) (*Grant, error) {
	acct, err := sc.Account(account)
	if err != nil || !sc.IsHTTP() {
		return nil, err
	}
	return k.Tokens().Load(ctx, GrantKey{Resource: config.CanonicalURL(sc.URL), Account: acct.Name})
}

// StateOf returns where account's sign-in at the HTTP server sc stands.
func (k *Keeper) StateOf(sc config.ServerConfig, account string) State {
	key, ok := KeyOf(sc, account)
	if !ok {
		return State{}
	}
	return k.board.state(key)
}

// CancelOf ends the sign-in of account at sc that waits for the person,
// whoever started it (Sign in, or a read): the loopback listener closes,
// and every request waiting on it fails as canceled. Until the person
// signs in (Login), no request starts another.
func (k *Keeper) CancelOf(sc config.ServerConfig, account string) {
	if key, ok := KeyOf(sc, account); ok {
		k.board.end(key, signInCanceled)
	}
}

// Login is the person signing account in to the HTTP server sc: it clears
// what ended the last sign-in (a sign-out, a cancel), and connects under
// MayStart, which runs the sign-in when the server asks for one. logout
// first ends the account's earlier grant, its private entries and its
// connections; connect opens the account's connection and returns its
// handler (nil when it sends a credential of its own) with the connect's
// error. It returns the new grant.
func (k *Keeper) Login(ctx context.Context, sc config.ServerConfig, account string,
	logout func(context.Context) error, connect func(context.Context) (*Handler, error)) (*Grant, error) {
	if err := k.mayLogin(sc, account); err != nil {
		return nil, err
	}
	if err := logout(ctx); err != nil {
		return nil, err
	}
	if key, ok := KeyOf(sc, account); ok {
		k.board.allow(key)
	}
	ctx = MayStart(ctx)
	o, err := connect(ctx)
	if err != nil {
		// The person may have taken longer than the connect timeout: the
		// grant is kept all the same, so connect again with it.
		if o == nil {
			return nil, err
		}
		if g, _ := o.Grant(ctx); g == nil {
			return nil, err
		}
		if o, err = connect(ctx); err != nil {
			return nil, err
		}
	}
	return loginGrant(ctx, o, sc, account)
}

// mayLogin refuses a Login that cannot sign in.
func (k *Keeper) mayLogin(sc config.ServerConfig, account string) error {
	switch {
	case !k.On():
		return fault.New(fault.KindUsage, nil, "signing in is off in this host")
	case !sc.IsHTTP():
		return fault.New(fault.KindUsage, nil, "%s is a stdio server: its credentials come from the config, not a sign-in", sc.Name)
	}
	if err := RefuseCleartext(sc.Name, sc.URL); err != nil {
		return err
	}
	_, err := sc.Account(account)
	return err
}

// loginGrant is the grant a Login's connection got.
func loginGrant(ctx context.Context, o *Handler, sc config.ServerConfig, account string) (*Grant, error) {
	if o == nil {
		acct, _ := sc.Account(account)
		return nil, fault.New(fault.KindUsage, nil, "%s as %s sends its own Authorization header; there is nothing to sign in to", sc.Name, acct.Name)
	}
	g, err := o.Grant(ctx)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, fault.New(fault.KindUsage, nil, "%s did not ask for a sign-in: it serves this account without one", sc.Name)
	}
	return g, nil
}
