package hostcore

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// SEP-2352: a resource may move to another authorization server. Its
// protected resource metadata then names the new one, and its 401s refuse
// the tokens of the old. The grant the host keeps was made with the old
// server and is never carried to the new: no refresh is tried, and the
// new server gets a registration of its own and a sign-in of its own.
// That sign-in is one the person is asked for, not a sign-out: where
// OAuthOptions.SignInOnMove is set (attachectl, whose every command is the
// person's), a request that may sign in signs in there; otherwise (the
// app) the account is "moved" (SignInState.MovedTo) until the person signs
// in (Login), and requests say where.

// movedTo returns the authorization server the resource now names, when
// it is not the one g came from; "" when it is the same, or the metadata
// cannot be read (the refresh that follows then decides).
func (o *oauthHandler) movedTo(ctx context.Context, req *http.Request, challenges []oauthex.Challenge, g *Grant) string {
	was := g.AuthServer
	if was == "" {
		return "" // a grant from before the host kept it: nothing to compare
	}
	now := o.currentAuthServer(ctx, req.URL, challenges)
	if now == "" || sameIssuer(now, was) {
		return ""
	}
	return now
}

// currentAuthServer reads the resource's protected resource metadata in
// the order go-sdk does (the challenge's resource_metadata, then the
// well-known URL at the endpoint's path, then at the root) and returns the
// first authorization server it names; "" if none answers.
func (o *oauthHandler) currentAuthServer(ctx context.Context, endpoint *url.URL, challenges []oauthex.Challenge) string {
	client := o.c.host.oauthHTTPClient()
	type try struct{ url, resource string }
	var tries []try
	for _, c := range challenges {
		if u := c.Params["resource_metadata"]; u != "" {
			tries = append(tries, try{u, endpoint.String()})
			break
		}
	}
	at := *endpoint
	at.RawQuery, at.Fragment = "", ""
	at.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(endpoint.Path, "/")
	tries = append(tries, try{at.String(), endpoint.String()})
	at.Path = "/.well-known/oauth-protected-resource"
	tries = append(tries, try{at.String(), endpoint.Scheme + "://" + endpoint.Host})
	for _, t := range tries {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, t.url, t.resource, client)
		if err == nil && prm != nil && len(prm.AuthorizationServers) > 0 {
			return prm.AuthorizationServers[0]
		}
	}
	return ""
}

// signInAt handles a resource that moved to the authorization server to:
// the account is moved, and signs in there when it may (see above).
func (o *oauthHandler) signInAt(ctx context.Context, req *http.Request, resp *http.Response, to string, old *Grant) error {
	h := o.c.host
	h.log.Info("the server's authorization server changed", "server", o.c.Server.Name, "account", o.c.Account.Name,
		"was", old.AuthServer, "now", to)
	h.signIns.moved(o.key, to)
	if !h.opts.OAuth.SignInOnMove || !maySignIn(ctx) {
		e := newError(KindUnauthorized, ErrSignInNeeded, "%s: the server now signs in at %s, not at %s", o.c, hostOf(to), hostOf(old.AuthServer))
		e.HTTPStatus = http.StatusUnauthorized
		e.Next = signInHint(o.c.Server.Name, "Sign in at "+hostOf(to)+" to read this")
		return e
	}
	if err := o.signIn(ctx, req, resp); err != nil {
		return err
	}
	o.purgeGrant(ctx, old) // another grant now: the old one's private entries go
	return nil
}

// hostOf is a URL's host, for messages; the URL itself if it has none.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host + strings.TrimSuffix(u.Path, "/")
	}
	return raw
}
