package threengram_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/attache/attache/internal/threengram"
)

// What the authorization server refuses, and how it says so.

func TestOAuthPKCEIsS256Only(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
	verifier := oauth2.GenerateVerifier()
	for _, tt := range []struct {
		name string
		opts []oauth2.AuthCodeOption
	}{
		{"plain", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("code_challenge", verifier),
			oauth2.SetAuthURLParam("code_challenge_method", "plain")}},
		{"no method", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("code_challenge", oauth2.S256ChallengeFromVerifier(verifier))}},
		{"no challenge", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := append(tt.opts, oauth2.SetAuthURLParam("tenant", "acme"))
			q, status, body := cb.visit(t, cfg.AuthCodeURL("s", opts...))
			if q == nil {
				t.Fatalf("no redirect: %d %s", status, body)
			}
			if q.Get("error") != "invalid_request" || q.Get("code") != "" || q.Get("iss") != o.Issuer || q.Get("state") != "s" {
				t.Errorf("response %v; want error invalid_request with iss and state, and no code", q)
			}
		})
	}

	t.Run("wrong verifier", func(t *testing.T) {
		code, verifier := o.signIn(t, cfg, cb, "acme")
		if _, err := o.exchange(cfg, code, oauth2.GenerateVerifier()); !isCode(err, "invalid_grant") {
			t.Errorf("exchange with another verifier = %v; want invalid_grant", err)
		}
		// The failed attempt spent the code.
		if _, err := o.exchange(cfg, code, verifier); !isCode(err, "invalid_grant") {
			t.Errorf("exchange after a failed one = %v; want invalid_grant", err)
		}
	})
}

func TestOAuthRedirectURIMustBeRegistered(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.register(t, oauthex.ClientRegistrationMetadata{
		RedirectURIs:            []string{"http://127.0.0.1/callback", "http://127.0.0.1/other"},
		TokenEndpointAuthMethod: "none",
	})

	t.Run("unregistered path", func(t *testing.T) {
		cfg := o.config(client.ClientID, "", strings.Replace(cb.URL, "/callback", "/elsewhere", 1), oauth2.AuthStyleInParams)
		verifier := oauth2.GenerateVerifier()
		q, status, body := cb.visit(t, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("tenant", "acme")))
		if q != nil || status != http.StatusBadRequest || !strings.Contains(body, "not registered") {
			t.Errorf("an unregistered redirect_uri got %v, %d %s; want a 400 page and no redirect", q, status, body)
		}
	})

	t.Run("token request names another", func(t *testing.T) {
		cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams)
		code, verifier := o.signIn(t, cfg, cb, "acme")
		other := *cfg
		other.RedirectURL = strings.Replace(cb.URL, "/callback", "/other", 1)
		if _, err := o.exchange(&other, code, verifier); !isCode(err, "invalid_grant") {
			t.Errorf("exchange with another redirect_uri = %v; want invalid_grant", err)
		}
	})

	t.Run("registration", func(t *testing.T) {
		for _, uri := range []string{"http://example.com/cb", "javascript:alert(1)", "https://example.com/cb#frag", "cb"} {
			_, err := oauthex.RegisterClient(context.Background(), o.Issuer+"/register",
				&oauthex.ClientRegistrationMetadata{RedirectURIs: []string{uri}}, nil)
			if re, ok := err.(*oauthex.ClientRegistrationError); !ok || re.ErrorCode != "invalid_redirect_uri" {
				t.Errorf("registering %q = %v; want invalid_redirect_uri", uri, err)
			}
		}
	})
}

func TestOAuthResourceIsBound(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams)
	verifier := oauth2.GenerateVerifier()
	q, _, _ := cb.visit(t, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", "https://elsewhere.example/mcp"), oauth2.SetAuthURLParam("tenant", "acme")))
	if q.Get("error") != "invalid_target" {
		t.Errorf("a foreign resource got %v; want invalid_target", q)
	}
	code, verifier := o.signIn(t, cfg, cb, "acme")
	_, err := cfg.Exchange(context.Background(), code, oauth2.VerifierOption(verifier),
		oauth2.SetAuthURLParam("resource", "https://elsewhere.example/mcp"))
	if !isCode(err, "invalid_target") {
		t.Errorf("exchange for a foreign resource = %v; want invalid_target", err)
	}

	// A token is for the resource it was issued for: the same store served
	// under another issuer does not take it.
	code, verifier = o.signIn(t, cfg, cb, "acme")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	if status := o.gate(t, tok.AccessToken); status != http.StatusOK {
		t.Fatalf("token at its own resource: %d", status)
	}
	other := serveOAuth(t, o.Store, o.Clock, nil)
	if status, c := challenge(t, other.MCP, tok.AccessToken); status != 401 || c.Params["error"] != "invalid_token" {
		t.Errorf("token at another resource: %d %+v; want 401 invalid_token", status, c)
	}
}

func TestOAuthInsufficientScope(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeWrite)
	code, verifier := o.signIn(t, cfg, cb, "acme")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	status, header := challenge(t, o.MCP, tok.AccessToken)
	if status != http.StatusForbidden || header.Params["error"] != "insufficient_scope" ||
		header.Params["scope"] != threengram.ScopeRead || header.Params["resource_metadata"] != o.Issuer+"/.well-known/oauth-protected-resource/mcp" {
		t.Errorf("a token without memory:read got %d %+v; want 403 insufficient_scope naming memory:read and the metadata", status, header)
	}
	// Scopes the server does not know are refused at the front door.
	q, _, _ := cb.visit(t, o.config(client.ClientID, "", cb.URL, 0, "admin").AuthCodeURL("s",
		oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("tenant", "acme")))
	if q.Get("error") != "invalid_scope" {
		t.Errorf("an unknown scope got %v; want invalid_scope", q)
	}
}

// challenge POSTs a read with token to endpoint and returns the status and
// the Bearer challenge.
func challenge(t *testing.T, endpoint, token string) (int, oauthex.Challenge) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{}`))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(cs) != 1 || cs[0].Scheme != "bearer" {
		t.Fatalf("WWW-Authenticate %q: %v", resp.Header.Values("WWW-Authenticate"), err)
	}
	return resp.StatusCode, cs[0]
}

func TestOAuthClientAuthentication(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	for _, tt := range []struct {
		method      string
		style, gone oauth2.AuthStyle // how the client registered, and the other way
	}{
		{"client_secret_basic", oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams},
		{"client_secret_post", oauth2.AuthStyleInParams, oauth2.AuthStyleInHeader},
	} {
		t.Run(tt.method, func(t *testing.T) {
			client := o.register(t, oauthex.ClientRegistrationMetadata{
				RedirectURIs: []string{"http://127.0.0.1/callback"}, TokenEndpointAuthMethod: tt.method,
				GrantTypes: []string{"authorization_code", "refresh_token"},
			})
			if client.ClientSecret == "" || client.TokenEndpointAuthMethod != tt.method {
				t.Fatalf("registration = %+v; want a secret and %s", client, tt.method)
			}
			cfg := o.config(client.ClientID, client.ClientSecret, cb.URL, tt.style, threengram.ScopeRead)
			code, verifier := o.signIn(t, cfg, cb, "initech")
			for name, bad := range map[string]*oauth2.Config{
				"the other method": o.config(client.ClientID, client.ClientSecret, cb.URL, tt.gone),
				"a wrong secret":   o.config(client.ClientID, "tgs_wrong", cb.URL, tt.style),
				"no secret":        o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams),
			} {
				if got, status := oauthCode(must(o.exchange(bad, code, verifier))); got != "invalid_client" || status != 401 {
					t.Errorf("%s: %s %d; want invalid_client 401", name, got, status)
				}
			}
			tok, err := o.exchange(cfg, code, verifier) // the refusals did not spend the code
			if err != nil {
				t.Fatal(err)
			}
			o.readAs(t, tok.AccessToken, "initech")
			if _, err := refresh(cfg, tok.RefreshToken); err != nil {
				t.Errorf("refresh with %s: %v", tt.method, err)
			}
		})
	}
	t.Run("a public client sends no secret", func(t *testing.T) {
		client := o.publicClient(t)
		cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams)
		code, verifier := o.signIn(t, cfg, cb, "acme")
		withSecret := o.config(client.ClientID, "made-up", cb.URL, oauth2.AuthStyleInParams)
		if _, err := o.exchange(withSecret, code, verifier); !isCode(err, "invalid_client") {
			t.Errorf("public client with a secret = %v; want invalid_client", err)
		}
	})
}

// must drops the token of an exchange, for tests that want its error.
func must(_ *oauth2.Token, err error) error { return err }

func TestOAuthEraseRevokesGrants(t *testing.T) {
	o := startOAuth(t, func(opts *threengram.OAuthOptions) { opts.AccessTokenTTL = 0 }) // 10 minutes
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
	tokens := map[string]*oauth2.Token{}
	for _, tenant := range []string{"acme", "globex"} {
		code, verifier := o.signIn(t, cfg, cb, tenant)
		tok, err := o.exchange(cfg, code, verifier)
		if err != nil || tok.ExpiresIn != 600 {
			t.Fatalf("signing in %s: %+v, %v; want a 600 s token", tenant, tok, err)
		}
		tokens[tenant] = tok
	}
	e, err := o.Store.Erase(context.Background(), "acme")
	if err != nil || e.Grants != 1 {
		t.Fatalf("Erase = %+v, %v; want 1 grant", e, err)
	}
	if status, h := challenge(t, o.MCP, tokens["acme"].AccessToken); status != 401 || h.Params["error"] != "invalid_token" {
		t.Errorf("erased tenant's access token: %d %+v; want 401 invalid_token", status, h)
	}
	if _, err := refresh(cfg, tokens["acme"].RefreshToken); !isCode(err, "invalid_grant") {
		t.Errorf("erased tenant's refresh = %v; want invalid_grant", err)
	}
	o.readAs(t, tokens["globex"].AccessToken, "globex")
	if _, err := refresh(cfg, tokens["globex"].RefreshToken); err != nil {
		t.Errorf("other tenant's refresh: %v", err)
	}
}

func TestOAuthTokenEndpointErrors(t *testing.T) {
	o := startOAuth(t, nil)
	client := o.publicClient(t)
	for _, tt := range []struct {
		name string
		form url.Values
		want string
	}{
		{"no grant_type", url.Values{"client_id": {client.ClientID}}, "invalid_request"},
		{"password grant", url.Values{"client_id": {client.ClientID}, "grant_type": {"password"}}, "unsupported_grant_type"},
		{"unknown client", url.Values{"client_id": {"tgcl_nobody"}, "grant_type": {"authorization_code"}}, "invalid_client"},
		{"unknown code", url.Values{"client_id": {client.ClientID}, "grant_type": {"authorization_code"},
			"code": {"tgc_x"}, "redirect_uri": {"http://127.0.0.1/callback"}, "code_verifier": {oauth2.GenerateVerifier()}}, "invalid_grant"},
		{"unknown refresh token", url.Values{"client_id": {client.ClientID}, "grant_type": {"refresh_token"},
			"refresh_token": {"tgr_x"}}, "invalid_grant"},
		{"repeated parameter", url.Values{"client_id": {client.ClientID}, "grant_type": {"refresh_token", "refresh_token"}}, "invalid_request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.PostForm(o.Issuer+"/token", tt.form)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ Error string }
			decodeJSON(t, resp.Body, &body)
			if body.Error != tt.want || resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("error %q (%d, Cache-Control %q); want %s, no-store", body.Error, resp.StatusCode, resp.Header.Get("Cache-Control"), tt.want)
			}
		})
	}
}
