package hostcore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// One sign-in: the authorization code flow with a loopback redirect, run
// once per account at a time (see signin.go for when it may start).

// errSignInTimedOut is the cause of a wait the person let run out.
var errSignInTimedOut = errors.New("no sign-in came in time")

// signIn runs a sign-in for the request that a server refused, or joins
// the one under way for the same account.
func (o *oauthHandler) signIn(ctx context.Context, req *http.Request, resp *http.Response) error {
	board := &o.c.host.signIns
	switch ended := board.ended(o.key); {
	case o.c.host.opts.OAuth.Present == nil:
		return o.signInError("the server asks for a sign-in")
	case ended != "":
		return o.signInError(ended)
	case !maySignIn(ctx):
		if scope, ok := insufficientScope(resp); ok {
			return o.signInError("the server asks for scope " + clip(scope))
		}
		return o.signInError("not signed in")
	}
	// A person in a browser may take longer than a connect or a request
	// may: the sign-in (the page, the wait and the code exchange) keeps to
	// its own timeout and the caller's own deadline (a command's budget),
	// not the host's request timeouts, and still ends when the request is
	// canceled. The request itself may then have run out of time; the
	// grant is kept, and the next connect uses it (Login connects again).
	ctx, stop := patient(ctx)
	defer stop()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	fl, owner := board.begin(o.key, cancel)
	if !owner {
		return o.join(ctx, fl)
	}
	ended, err := o.runSignIn(ctx, fl, req, resp)
	board.finish(o.key, fl, err, ended)
	return err
}

// join waits for another request's sign-in of the same account, and takes
// its grant.
func (o *oauthHandler) join(ctx context.Context, fl *signInFlight) error {
	select {
	case <-fl.done:
	case <-ctx.Done():
		return o.stopped(ctx)
	}
	if fl.err != nil {
		return fl.err
	}
	o.reload()
	return nil
}

// runSignIn runs the flow through go-sdk's handler. ended says why it
// ended without a grant when only the person can start the next one.
func (o *oauthHandler) runSignIn(ctx context.Context, fl *signInFlight, req *http.Request, resp *http.Response) (ended string, err error) {
	cb, err := listenCallback(o.c.Server.Name)
	if err != nil {
		return "", err
	}
	defer cb.close()
	// The page stays up until the sign-in ends, the code exchanged and the
	// grant kept, so that what shows it can then show who signed in.
	shown, endShown := context.WithCancel(ctx)
	defer endShown()
	facts := &signInFacts{mcpURL: req.URL.String()}
	cfg := o.handlerConfig(cb.redirect, facts.client(o.c.host.oauthHTTPClient()), facts)
	cfg.AuthorizationCodeFetcher = func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		res, why, err := o.awaitRedirect(ctx, shown, fl, cb, args.URL)
		ended = why
		if res != nil {
			facts.answer(res.Iss)
		}
		return res, err
	}
	handler, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return "", err
	}
	if err := handler.Authorize(ctx, req, resp); err != nil {
		err = o.explainSignIn(err, facts)
		cb.finish(err)
		return ended, err
	}
	cb.finish(nil)
	return "", nil
}

// handlerConfig is go-sdk's configuration of one sign-in.
func (o *oauthHandler) handlerConfig(redirect string, client *http.Client, facts *signInFacts) *auth.AuthorizationCodeHandlerConfig {
	opts := o.c.host.opts.OAuth
	name := opts.ClientName
	if name == "" {
		name = "Attaché"
	}
	var granted []string
	if g, _, _ := o.current(context.Background()); g != nil {
		granted = g.Scopes
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:           redirect,
		RequestRefreshToken:   true,
		AcceptUnadvertisedIss: true,
		Client:                client,
		// A step-up keeps what was granted before.
		ScopeFilter: func(discovered []string) []string { return unionScopes(granted, discovered) },
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			return o.granted(ctx, cfg, tok, facts)
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
			cfg.ScopeFilter = func([]string) []string { return unionScopes(granted, pre.Scopes) }
		}
	} else if opts.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: opts.ClientMetadataURL}
	}
	return cfg
}

// granted records a new grant (NewTokenSource of the code handler): where
// it was made, and, when the server tells, who it is for.
func (o *oauthHandler) granted(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token, facts *signInFacts) (oauth2.TokenSource, error) {
	h := o.c.host
	meta, _ := facts.accepted()
	issuer := meta.meta.Issuer
	if issuer == "" { // no metadata (the 2025-03-26 fallback): the authorization server's origin
		if u, err := url.Parse(cfg.Endpoint.AuthURL); err == nil {
			issuer = u.Scheme + "://" + u.Host
		}
	}
	g := &Grant{ID: rand.Text(), Server: o.c.Server.Name, Resource: o.key.Resource, Account: o.key.Account,
		Issuer: issuer, AuthServer: facts.authServer(), ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		TokenURL: cfg.Endpoint.TokenURL, AuthStyle: cfg.Endpoint.AuthStyle, Scopes: tokenScopes(tok, cfg.Scopes),
		SignedInAt: h.opts.Now.now(), Token: tok}
	if g.AuthServer == "" {
		g.AuthServer = issuer
	}
	g.Subject = o.subjectOf(ctx, meta.meta, cfg, tok)
	if err := h.tokens().Save(ctx, g); err != nil {
		return nil, fmt.Errorf("keeping the sign-in: %w", err)
	}
	src := o.sourceFor(g)
	o.mu.Lock()
	o.grant, o.source, o.loaded = g, src, true
	o.mu.Unlock()
	h.log.Info("signed in", "server", o.c.Server.Name, "account", o.c.Account.Name, "issuer", issuer, "scopes", g.Scopes)
	return src, nil
}

// awaitRedirect presents the authorization URL (for as long as shown
// lasts) and waits for its answer at the loopback listener, the timeout,
// a cancel, or an error from Present. why says why it ended without an
// answer, when only the person can start the next sign-in.
func (o *oauthHandler) awaitRedirect(ctx, shown context.Context, fl *signInFlight, cb *callback, authURL string) (_ *auth.AuthorizationResult, why string, _ error) {
	opts := o.c.host.opts.OAuth
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errSignInTimedOut)
	defer cancel()
	answers := cb.expect(stateOf(authURL))
	o.c.host.signIns.shown(o.key, fl, authURL)
	// Present runs beside the wait: it may hold the page up, and the
	// answer may come while it does.
	presented := make(chan error, 1)
	page := SignInPage{Server: o.c.Server.Name, Account: o.c.Account.Name, URL: authURL}
	go func() { presented <- opts.Present(shown, page) }()
	for {
		select {
		case err := <-presented:
			if errors.Is(err, context.Canceled) && ctx.Err() == nil { // the person canceled, where the page is shown
				return nil, signInCanceled, o.signInError(signInCanceled)
			} else if err != nil && ctx.Err() == nil {
				why := "the sign-in page could not be shown"
				e := newError(KindUnauthorized, err, "%s: %s", o.c, why)
				e.Next = signInHint(o.c.Server.Name, "Sign in to try again")
				return nil, why, e
			}
			presented = nil // shown; keep waiting
		case q := <-answers:
			if e := q.Get("error"); e != "" {
				return nil, "", newError(KindUnauthorized, nil, "%s: the authorization server did not sign you in (%s)", o.c,
					clip(e+": "+q.Get("error_description")))
			}
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, "", nil
		case <-ctx.Done():
			why, err := o.waitEnded(ctx, timeout)
			return nil, why, err
		}
	}
}

// waitEnded is the outcome of a wait whose context ended: the person let
// it time out, or canceled it (CancelSignIn), or the caller's deadline or
// cancel ended it.
func (o *oauthHandler) waitEnded(ctx context.Context, timeout time.Duration) (why string, _ error) {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errSignInTimedOut):
		why := fmt.Sprintf("no sign-in came within %s", timeout)
		return why, o.signInError(why)
	case errors.Is(cause, errSignInCanceled):
		return signInCanceled, o.signInError(signInCanceled)
	}
	return "", o.stopped(ctx)
}

// stateOf is the state parameter of an authorization URL.
func stateOf(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("state")
}

// stopped is the error of a sign-in whose context ended before it did: the
// caller's deadline (a command's budget) ran out, or the person or the
// caller canceled it.
func (o *oauthHandler) stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e := newError(KindTimeout, ctx.Err(), "%s: the time allowed ran out while waiting for the sign-in", o.c)
		e.Next = fmt.Sprintf("Sign in first (attachectl login %s waits up to 5 minutes), or allow more time.", o.c.Server.Name)
		return e
	}
	return o.canceled(context.Cause(ctx))
}

// canceled is the error of a sign-in that the person or the caller
// canceled. It carries its kind, so that the 401 that started the sign-in
// does not make it read as refused credentials.
func (o *oauthHandler) canceled(cause error) error {
	return newError(KindCanceled, cause, "%s: %s", o.c, signInCanceled)
}

// cancelReason says what a canceled connect was doing: "the sign-in was
// canceled" when the account's last sign-in ended that way, else
// "canceled". o may be nil.
func (o *oauthHandler) cancelReason() string {
	if o != nil && o.c.host.signIns.ended(o.key) == signInCanceled {
		return signInCanceled
	}
	return "canceled"
}
