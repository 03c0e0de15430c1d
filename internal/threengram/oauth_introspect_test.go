package threengram_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/attache/attache/internal/threengram"
)

// introspect posts token to /introspect as clientID (a public client).
func (o *oauthServer) introspect(t *testing.T, clientID, token string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	if clientID != "" {
		form.Set("client_id", clientID)
	}
	resp, err := http.PostForm(o.Issuer+"/introspect", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// RFC 7662 introspection tells a token's own client whom it is for (the
// tenant), and tells anyone else nothing: another client's question, an
// unknown token and an expired one are all {"active": false}; a caller
// that is no client is refused.
func TestIntrospection(t *testing.T) {
	o := startOAuth(t, nil)
	cb := newCallback(t)
	mine, other := o.publicClient(t), o.publicClient(t)
	cfg := o.config(mine.ClientID, "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
	code, verifier := o.signIn(t, cfg, cb, "globex")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil {
		t.Fatal(err)
	}
	status, got := o.introspect(t, mine.ClientID, tok.AccessToken)
	if status != http.StatusOK || got["active"] != true || got["username"] != "globex" || got["sub"] != "globex" ||
		got["scope"] != threengram.ScopeRead || got["client_id"] != mine.ClientID || got["aud"] != o.MCP || got["iss"] != o.Issuer {
		t.Errorf("introspecting its own token: %d %v; want active, for globex", status, got)
	}
	for name, ask := range map[string][2]string{
		"another client": {other.ClientID, tok.AccessToken},
		"unknown token":  {mine.ClientID, "tga_nosuchtoken"},
		"refresh token":  {mine.ClientID, tok.RefreshToken},
	} {
		if status, got := o.introspect(t, ask[0], ask[1]); status != http.StatusOK || got["active"] != false || len(got) != 1 {
			t.Errorf("%s: %d %v; want only {\"active\": false}", name, status, got)
		}
	}
	if status, _ := o.introspect(t, "", tok.AccessToken); status != http.StatusUnauthorized {
		t.Errorf("no client: %d; want 401 invalid_client", status)
	}
	o.Clock.Advance(3 * time.Second) // the tokens live 2 s
	if _, got := o.introspect(t, mine.ClientID, tok.AccessToken); got["active"] != false {
		t.Errorf("an expired token: %v; want inactive", got)
	}
}
