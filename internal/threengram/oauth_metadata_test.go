package threengram_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/attache/attache/internal/threengram"
)

func decodeJSON(t *testing.T, r io.Reader, v any) {
	t.Helper()
	if err := json.NewDecoder(r).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	return b
}

// TestOAuthDiscovery reads the metadata the way go-sdk's client does,
// with its checks: the resource of each document matches the URL it came
// from, the issuer matches, PKCE is advertised.
func TestOAuthDiscovery(t *testing.T) {
	o := startOAuth(t, nil)
	ctx := context.Background()
	status, c := challenge(t, o.MCP, "")
	metadataURL := o.Issuer + "/.well-known/oauth-protected-resource/mcp"
	if status != 401 || c.Params["resource_metadata"] != metadataURL || c.Params["scope"] != threengram.ScopeRead || c.Params["error"] != "" {
		t.Errorf("no token: %d %+v; want 401 naming %s and memory:read, with no error", status, c, metadataURL)
	}
	if status, c := challenge(t, o.MCP, "tga_forged"); status != 401 || c.Params["error"] != "invalid_token" {
		t.Errorf("forged token: %d %+v; want 401 invalid_token", status, c)
	}

	for _, tt := range []struct{ url, resource string }{
		{metadataURL, o.MCP},
		{o.Issuer + "/.well-known/oauth-protected-resource", o.Issuer},
	} {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, tt.url, tt.resource, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := &oauthex.ProtectedResourceMetadata{
			Resource: tt.resource, AuthorizationServers: []string{o.Issuer},
			ScopesSupported: []string{"memory:read", "memory:write"}, BearerMethodsSupported: []string{"header"},
			ResourceName: "threengram memory",
		}
		if diff := cmp.Diff(want, prm); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.url, diff)
		}
	}

	asm, err := auth.GetAuthServerMetadata(ctx, o.Issuer, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &oauthex.AuthServerMeta{
		Issuer:                o.Issuer,
		AuthorizationEndpoint: o.Issuer + "/authorize",
		TokenEndpoint:         o.Issuer + "/token",
		RegistrationEndpoint:  o.Issuer + "/register",
		IntrospectionEndpoint: o.Issuer + "/introspect",
		IntrospectionEndpointAuthMethodsSupported: []string{"none", "client_secret_basic", "client_secret_post"},
		ScopesSupported:                            []string{"memory:read", "memory:write", "offline_access"},
		ResponseTypesSupported:                     []string{"code"},
		ResponseModesSupported:                     []string{"query"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported:          []string{"none", "client_secret_basic", "client_secret_post"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		ClientIDMetadataDocumentSupported:          true,
		AuthorizationResponseIssParameterSupported: true,
	}
	if diff := cmp.Diff(want, asm); diff != "" {
		t.Errorf("authorization server metadata (-want +got):\n%s", diff)
	}
	if a, b := get(t, o.Issuer+"/.well-known/oauth-authorization-server"), get(t, o.Issuer+"/.well-known/openid-configuration"); string(a) != string(b) {
		t.Errorf("OpenID discovery differs:\n%s\n%s", a, b)
	}
}

// noRedirects is an HTTP client that hands back redirects instead of
// following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// TestOAuthLoginPage signs in the way a person does: without
// auto-approval, the tenant parameter only preselects a tenant; the form
// posts the choice back.
func TestOAuthLoginPage(t *testing.T) {
	o := startOAuth(t, func(opts *threengram.OAuthOptions) { opts.AutoApprove = false })
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL("st&te", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", o.MCP), oauth2.SetAuthURLParam("tenant", "acme"))
	q, status, page := cb.visit(t, authURL)
	if q != nil || status != http.StatusOK {
		t.Fatalf("without auto-approval, tenant=acme gave %v %d; want the login page", q, status)
	}
	for _, want := range []string{`value="acme" checked`, `value="globex"`, `value="initech"`, "test client", "Approve"} {
		if !strings.Contains(page, want) {
			t.Errorf("login page lacks %s:\n%s", want, page)
		}
	}
	form := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	post := func(edit func(url.Values)) *http.Response {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		edit(f)
		resp, err := noRedirects.PostForm(o.Issuer+"/authorize", f)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	if resp := post(func(f url.Values) {
		f.Set("scope", "memory:read memory:write")
		f.Set("tenant", "acme")
		f.Set("action", "approve")
	}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a form with widened scope: %d; want 400", resp.StatusCode)
	}
	if loc := location(t, post(func(f url.Values) { f.Set("action", "deny") })); loc.Get("error") != "access_denied" || loc.Get("iss") != o.Issuer {
		t.Errorf("deny redirected with %v; want access_denied and iss", loc)
	}
	loc := location(t, post(func(f url.Values) { f.Set("tenant", "globex"); f.Set("action", "approve") }))
	if loc.Get("state") != "st&te" || loc.Get("iss") != o.Issuer || loc.Get("code") == "" {
		t.Fatalf("approval redirected with %v", loc)
	}
	tok, err := o.exchange(cfg, loc.Get("code"), verifier)
	if err != nil {
		t.Fatal(err)
	}
	o.readAs(t, tok.AccessToken, "globex")
}

// The login page describes exactly the scopes asked for: reading only
// says nothing of writing (issue 21: it said "reads and writes" when only
// memory:read was asked for).
func TestLoginPageScopes(t *testing.T) {
	o := startOAuth(t, func(opts *threengram.OAuthOptions) { opts.AutoApprove = false })
	cb := newCallback(t)
	client := o.publicClient(t)
	read, write, stay := "read the tenant", "write the tenant", "stay signed in"
	for _, tt := range []struct {
		scopes    []string
		says, not []string
	}{
		{[]string{threengram.ScopeRead}, []string{read, "(<code>memory:read</code>)"}, []string{write, "writes", stay, "memory:write"}},
		{[]string{threengram.ScopeRead, threengram.ScopeWrite}, []string{read, write, "(<code>memory:write</code>)"}, []string{stay}},
		{[]string{threengram.ScopeRead, threengram.ScopeOfflineAccess}, []string{read, stay}, []string{write}},
	} {
		t.Run(strings.Join(tt.scopes, "+"), func(t *testing.T) {
			cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, tt.scopes...)
			authURL := cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()), oauth2.SetAuthURLParam("resource", o.MCP))
			_, status, page := cb.visit(t, authURL)
			if status != http.StatusOK {
				t.Fatalf("login page: %d", status)
			}
			for _, want := range tt.says {
				if !strings.Contains(page, want) {
					t.Errorf("the page asking for %v does not say %q:\n%s", tt.scopes, want, page)
				}
			}
			for _, wrong := range tt.not {
				if strings.Contains(page, wrong) {
					t.Errorf("the page asking for %v says %q:\n%s", tt.scopes, wrong, page)
				}
			}
		})
	}
}

// location is the query of a 303 redirect to the callback.
func location(t *testing.T, resp *http.Response) url.Values {
	t.Helper()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d; want 303", resp.StatusCode)
	}
	u, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || u.Path != "/callback" {
		t.Fatalf("Location %q: %v", resp.Header.Get("Location"), err)
	}
	return u.Query()
}
