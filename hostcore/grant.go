package hostcore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Grants: what a sign-in leaves behind, how it is kept between runs, and
// the token source that refreshes it (see oauth.go for the sign-in).

// Grant is one sign-in: what the host keeps to act for an account at one
// resource, between runs.
type Grant struct {
	// ID names the grant. It is the account's authorization context: a
	// refresh keeps it, a new sign-in replaces it.
	ID       string `json:"id"`
	Server   string `json:"server"`
	Resource string `json:"resource"`
	Account  string `json:"account"`
	Issuer   string `json:"issuer"`
	// AuthServer is the authorization server the resource named when the
	// grant was made (its protected resource metadata's first). A resource
	// that names another since has moved (SEP-2352): the grant is not
	// carried there.
	AuthServer string `json:"authServer,omitempty"`
	// Subject is who the grant acts for at the server, as the server tells
	// (RFC 7662 token introspection's username or sub); "" when it does
	// not say.
	Subject string `json:"subject,omitempty"`
	// The client the grant was issued to, and how it refreshes.
	ClientID     string           `json:"clientId"`
	ClientSecret string           `json:"clientSecret,omitempty"`
	TokenURL     string           `json:"tokenUrl"`
	AuthStyle    oauth2.AuthStyle `json:"authStyle"`
	Scopes       []string         `json:"scopes,omitempty"`
	SignedInAt   time.Time        `json:"signedInAt"`
	Token        *oauth2.Token    `json:"token"`
}

// Key returns where the grant is kept.
func (g *Grant) Key() GrantKey { return GrantKey{Resource: g.Resource, Account: g.Account} }

// GrantKey says whose grant for which resource.
type GrantKey struct{ Resource, Account string }

// TokenStore keeps grants between runs (the OS keyring, or a private file).
// Implementations must be safe for concurrent use.
type TokenStore interface {
	// Load returns the grant kept under key, or nil.
	Load(ctx context.Context, key GrantKey) (*Grant, error)
	Save(ctx context.Context, g *Grant) error
	Delete(ctx context.Context, key GrantKey) error
	// List returns every grant kept.
	List(ctx context.Context) ([]Grant, error)
}

// memoryTokens is the TokenStore of a Host given none.
type memoryTokens struct {
	mu     sync.Mutex
	grants map[GrantKey]Grant
}

func (m *memoryTokens) Load(_ context.Context, k GrantKey) (*Grant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if g, ok := m.grants[k]; ok {
		return &g, nil
	}
	return nil, nil
}

func (m *memoryTokens) Save(_ context.Context, g *Grant) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.grants == nil {
		m.grants = map[GrantKey]Grant{}
	}
	m.grants[g.Key()] = *g
	return nil
}

func (m *memoryTokens) Delete(_ context.Context, k GrantKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.grants, k)
	return nil
}

func (m *memoryTokens) List(context.Context) ([]Grant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Grant
	for _, g := range m.grants {
		out = append(out, g)
	}
	return out, nil
}

// sourceFor returns the refreshing, persisting token source of g.
func (o *oauthHandler) sourceFor(g *Grant) *grantSource {
	return &grantSource{o: o, grant: *g}
}

// grantSource is a grant's oauth2.TokenSource. It hands out the access
// token while it is fresh, and renews it under the grant's lock (see
// grant_lock.go): it reads the stored grant first and takes a token
// another process renewed, else refreshes with the newest refresh token
// and keeps the new token in the store, under the same grant. It is safe
// for concurrent use.
type grantSource struct {
	o *oauthHandler

	mu    sync.Mutex
	grant Grant
	dead  error // the refresh was answered invalid_grant: the grant is over
}

// Token implements oauth2.TokenSource.
func (s *grantSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return nil, s.dead
	}
	if tok := s.grant.Token; freshToken(tok) {
		return tok, nil
	}
	return s.renew("")
}

// refresh gets another access token than refused, which the server
// refused (401): another process's, if it renewed the grant since, else a
// refreshed one.
func (s *grantSource) refresh(refused string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return s.dead
	}
	_, err := s.renew(refused)
	return err
}

// renew gets a fresh access token under the grant's lock (call with s.mu
// held). refused, if set, is an access token that will not do.
func (s *grantSource) renew(refused string) (*oauth2.Token, error) {
	h := s.o.c.host
	ctx, done := h.tokenWork()
	defer done()
	unlock, err := h.lockGrant(ctx, s.o.key)
	if err != nil {
		return nil, err
	}
	defer unlock()
	stored, err := s.reread(ctx, refused)
	if err != nil {
		return nil, err
	}
	if stored == nil {
		return s.grant.Token, nil // another process's, fresh
	}
	tok, err := refreshWith(ctx, s.grant, stored.Token)
	if invalidGrant(err) {
		// Once more, before declaring the grant dead: a process that does
		// not take the lock may have rotated the refresh token meanwhile.
		if again, rerr := s.reread(ctx, refused); rerr == nil && again == nil {
			return s.grant.Token, nil
		}
		s.dead = err
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	s.keep(ctx, tok)
	return tok, nil
}

// reread loads the stored grant (call with the lock held). It returns nil
// when it adopted a fresh token from it that is not refused, the stored
// grant when the caller should refresh it, or an error when the grant
// went (signed out elsewhere) or was replaced by another sign-in.
func (s *grantSource) reread(ctx context.Context, refused string) (*Grant, error) {
	stored, err := s.o.c.host.tokens().Load(ctx, s.o.key)
	switch {
	case err != nil:
		return nil, err
	case stored == nil || stored.Token == nil:
		s.dead = s.o.signInError("the sign-in was ended in another window or process")
		return nil, s.dead
	case stored.ID != s.grant.ID:
		s.o.reload() // the next use takes the new grant
		return nil, newError(KindUnauthorized, nil, "%s: the account signed in again in another window or process; try again", s.o.c)
	}
	if tok := stored.Token; tok.AccessToken != s.grant.Token.AccessToken && tok.AccessToken != refused && freshToken(tok) {
		s.grant.Token = tok
		return nil, nil
	}
	if stored.Token.RefreshToken == "" {
		return nil, errors.New("no refresh token")
	}
	return stored, nil
}

// refreshWith redeems tok's refresh token at g's token endpoint.
func refreshWith(ctx context.Context, g Grant, tok *oauth2.Token) (*oauth2.Token, error) {
	cfg := &oauth2.Config{ClientID: g.ClientID, ClientSecret: g.ClientSecret, Scopes: g.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: g.AuthStyle}}
	return cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
}

// keep stores a refreshed token under the grant (call with the lock held).
func (s *grantSource) keep(ctx context.Context, tok *oauth2.Token) {
	s.grant.Token = tok
	g := s.grant
	h := s.o.c.host
	if err := h.tokens().Save(ctx, &g); err != nil {
		h.log.Warn("keeping a refreshed token failed", "server", s.o.c.Server.Name, "err", err)
	}
	h.log.Info("refreshed a sign-in", "server", s.o.c.Server.Name, "account", s.o.c.Account.Name)
}

// expiryMargin is how long before its expiry an access token is renewed,
// as golang.org/x/oauth2 does; a token that lives less than four times
// that is renewed a quarter of its life early instead.
const expiryMargin = 10 * time.Second

// freshToken reports whether tok can be sent: it has an access token that is
// not about to expire. Expiry is stamped on the real clock (by oauth2), so
// it is read on the real clock.
func freshToken(tok *oauth2.Token) bool {
	if tok == nil || tok.AccessToken == "" {
		return false
	}
	if tok.Expiry.IsZero() {
		return true
	}
	margin := expiryMargin
	if life := time.Duration(tok.ExpiresIn) * time.Second; life > 0 && life < 4*expiryMargin {
		margin = life / 4
	}
	return time.Now().Add(margin).Before(tok.Expiry)
}

// invalidGrant reports whether err is a token endpoint's invalid_grant.
func invalidGrant(err error) bool {
	var re *oauth2.RetrieveError
	return errors.As(err, &re) && re.ErrorCode == "invalid_grant"
}

func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// tokenScopes returns the scopes a token response granted, else those
// asked for, sorted: a scope string is a set (RFC 6749 §3.3), and people
// and tests read it the same way each time.
func tokenScopes(tok *oauth2.Token, asked []string) []string {
	out := slices.Clone(asked)
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		out = splitScopes(s)
	}
	slices.Sort(out)
	return out
}

func splitScopes(s string) []string { return strings.Fields(s) }
