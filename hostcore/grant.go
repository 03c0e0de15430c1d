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
func (o *oauthHandler) sourceFor(g *Grant, tok *oauth2.Token) *grantSource {
	cfg := &oauth2.Config{ClientID: g.ClientID, ClientSecret: g.ClientSecret, Scopes: g.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: g.AuthStyle}}
	return &grantSource{o: o, cfg: cfg, grant: *g, base: cfg.TokenSource(o.c.host.oauthContext(), tok), last: tok}
}

// grantSource refreshes a grant's access token before it expires and keeps
// each new token in the store, under the same grant.
type grantSource struct {
	o   *oauthHandler
	cfg *oauth2.Config

	mu    sync.Mutex
	grant Grant
	base  oauth2.TokenSource
	last  *oauth2.Token
}

func (s *grantSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.keep(tok)
	return tok, nil
}

// refresh gets a new access token now, whatever the old one's expiry.
func (s *grantSource) refresh() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil || s.last.RefreshToken == "" {
		return errors.New("no refresh token")
	}
	expired := *s.last
	expired.Expiry = time.Unix(1, 0)
	s.base = s.cfg.TokenSource(s.o.c.host.oauthContext(), &expired)
	tok, err := s.base.Token()
	if err != nil {
		return err
	}
	s.keep(tok)
	return nil
}

// keep stores a token that differs from the last one (call with s.mu held).
func (s *grantSource) keep(tok *oauth2.Token) {
	if s.last != nil && tok.AccessToken == s.last.AccessToken {
		return
	}
	s.last = tok
	s.grant.Token = tok
	g := s.grant
	if err := s.o.c.host.tokens().Save(context.Background(), &g); err != nil {
		s.o.c.host.log.Warn("keeping a refreshed token failed", "server", s.o.c.Server.Name, "err", err)
	}
	s.o.c.host.log.Info("refreshed a sign-in", "server", s.o.c.Server.Name, "account", s.o.c.Account.Name)
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
