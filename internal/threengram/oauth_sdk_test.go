package threengram_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/attache/attache/internal/threengram"
)

// TestOAuthGoSDKClient signs in with go-sdk's client side, the library the
// host uses: auth.AuthorizationCodeHandler discovers the metadata from the
// 401, registers (client ID metadata document, pre-registered client or
// DCR), runs PKCE with the resource indicator, checks iss, and the
// streamable transport then reads a memory with the token. The fetcher
// plays the browser: it GETs the authorization URL with tenant=acme, which
// the server approves on its own (AutoApprove), and follows the redirect
// to the loopback listener.
func TestOAuthGoSDKClient(t *testing.T) {
	docs := documents(t, true, map[string]func(string) string{"/client.json": clientDocument("/client.json", nil)})
	o := startOAuth(t, func(opts *threengram.OAuthOptions) {
		opts.HTTPClient = docs.Client()
		// x/oauth2 counts a token as expired 10 s early: a 2 s token
		// would be refreshed before every request.
		opts.AccessTokenTTL = 0
	})
	cb := newCallback(t)
	secretClient := o.register(t, oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{"http://127.0.0.1/callback"}, TokenEndpointAuthMethod: "client_secret_post",
		GrantTypes: []string{"authorization_code", "refresh_token"},
	})
	for _, tt := range []struct {
		name string
		cfg  auth.AuthorizationCodeHandlerConfig
	}{
		{"client ID metadata document", auth.AuthorizationCodeHandlerConfig{
			ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: docs.URL + "/client.json"},
			RedirectURL:                    cb.URL,
		}},
		{"pre-registered", auth.AuthorizationCodeHandlerConfig{
			PreregisteredClient: &oauthex.ClientCredentials{ClientID: secretClient.ClientID, Issuer: o.Issuer,
				ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: secretClient.ClientSecret}},
			RedirectURL: cb.URL,
		}},
		{"dynamic registration", auth.AuthorizationCodeHandlerConfig{
			DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
				Metadata: &oauthex.ClientRegistrationMetadata{
					ClientName: "go-sdk test", RedirectURIs: []string{cb.URL}, TokenEndpointAuthMethod: "none",
					GrantTypes: []string{"authorization_code", "refresh_token"},
				},
			},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.RequestRefreshToken = true
			cfg.AuthorizationCodeFetcher = func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
				q, status, body, err := cb.follow(args.URL + "&tenant=acme")
				if err != nil || q == nil {
					return nil, fmt.Errorf("authorize answered %d %s: %v", status, body, err)
				}
				return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
			}
			h, err := auth.NewAuthorizationCodeHandler(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			tr := &mcp.StreamableClientTransport{Endpoint: o.MCP, OAuthHandler: h, MaxRetries: -1}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			ids := ownIDs(t, cs)
			if _, err := o.Store.Get(context.Background(), "acme", ids[0]); err != nil {
				t.Fatalf("signed in, but not as acme: %v", err)
			}
			if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: threengram.MemoryURI(ids[0])}); err != nil {
				t.Fatal(err)
			}
			// The challenge asked for memory:read; RequestRefreshToken added
			// offline_access, which the metadata advertises.
			ts, _ := h.TokenSource(context.Background())
			tok, err := ts.Token()
			if err != nil || tok.RefreshToken == "" || !sameScopes(tok.Extra("scope"), "memory:read offline_access") {
				t.Errorf("token %+v scope %q, %v; want a refresh token and memory:read offline_access", tok, tok.Extra("scope"), err)
			}
		})
	}
}

func sameScopes(got any, want string) bool {
	s, _ := got.(string)
	g, w := strings.Fields(s), strings.Fields(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// TestOAuthGoSDKStepUp: a grant without memory:read gets 403
// insufficient_scope with the scope needed, and go-sdk's handler signs in
// again for the union of the scopes (step-up), after which reads work.
func TestOAuthGoSDKStepUp(t *testing.T) {
	o := startOAuth(t, func(opts *threengram.OAuthOptions) { opts.AccessTokenTTL = 0 })
	cb := newCallback(t)
	var mu sync.Mutex
	var asked []string // the scope of each sign-in
	cfg := auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{cb.URL}, TokenEndpointAuthMethod: "none"},
		},
		ScopeFilter: func(discovered []string) []string {
			mu.Lock()
			defer mu.Unlock()
			if len(asked) == 0 {
				return []string{threengram.ScopeWrite} // the first sign-in asks too little
			}
			return discovered
		},
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			u, _ := url.Parse(args.URL)
			mu.Lock()
			asked = append(asked, u.Query().Get("scope"))
			mu.Unlock()
			q, status, body, err := cb.follow(args.URL + "&tenant=acme")
			if err != nil || q == nil {
				return nil, fmt.Errorf("authorize answered %d %s: %v", status, body, err)
			}
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
	}
	h, err := auth.NewAuthorizationCodeHandler(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := &mcp.StreamableClientTransport{Endpoint: o.MCP, OAuthHandler: h, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ownIDs(t, cs)
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 || asked[0] != threengram.ScopeWrite || !sameScopes(asked[1], "memory:read memory:write") {
		t.Errorf("sign-ins asked for %q; want memory:write, then memory:read with it", asked)
	}
}
