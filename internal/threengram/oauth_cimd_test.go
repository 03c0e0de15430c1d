package threengram_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/attache/attache/internal/threengram"
)

// documents serves client ID metadata documents by path, on loopback.
func documents(t *testing.T, tls bool, docs map[string]func(base string) string) *httptest.Server {
	var srv *httptest.Server
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body := doc(srv.URL)
		if loc, ok := strings.CutPrefix(body, "redirect:"); ok {
			http.Redirect(w, r, loc, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	})
	if tls {
		srv = httptest.NewTLSServer(h)
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	return srv
}

// clientDocument is a metadata document for the client at base+path;
// edit changes it first.
func clientDocument(path string, edit func(map[string]any)) func(base string) string {
	return func(base string) string {
		doc := map[string]any{
			"client_id":                  base + path,
			"client_name":                "document client",
			"redirect_uris":              []string{"http://127.0.0.1/callback"},
			"grant_types":                []string{"authorization_code", "refresh_token"},
			"token_endpoint_auth_method": "none",
		}
		if edit != nil {
			edit(doc)
		}
		b, _ := json.Marshal(doc)
		return string(b)
	}
}

func TestOAuthClientIDMetadataDocument(t *testing.T) {
	docs := documents(t, false, map[string]func(string) string{
		"/good.json":     clientDocument("/good.json", nil),
		"/other-id.json": clientDocument("/good.json", nil),
		"/secret.json":   clientDocument("/secret.json", func(d map[string]any) { d["token_endpoint_auth_method"] = "client_secret_basic" }),
		"/huge.json":     clientDocument("/huge.json", func(d map[string]any) { d["client_name"] = strings.Repeat("x", 6000) }),
		"/moved.json":    func(base string) string { return "redirect:" + base + "/good.json" },
		"/no-uris.json":  clientDocument("/no-uris.json", func(d map[string]any) { d["redirect_uris"] = []string{} }),
	})
	o := startOAuth(t, func(opts *threengram.OAuthOptions) { opts.LoopbackClientIDs = true })
	cb := newCallback(t)

	t.Run("sign in", func(t *testing.T) {
		cfg := o.config(docs.URL+"/good.json", "", cb.URL, oauth2.AuthStyleInParams, threengram.ScopeRead)
		code, verifier := o.signIn(t, cfg, cb, "acme")
		tok, err := o.exchange(cfg, code, verifier)
		if err != nil {
			t.Fatal(err)
		}
		if tok.RefreshToken == "" {
			t.Error("no refresh token, though the document lists the refresh_token grant")
		}
		o.readAs(t, tok.AccessToken, "acme")
		if _, err := refresh(cfg, tok.RefreshToken); err != nil {
			t.Errorf("refresh: %v", err)
		}
	})

	for _, tt := range []struct{ path, want string }{
		{"/other-id.json", "names client_id"},
		{"/secret.json", "authenticates with none"},
		{"/huge.json", "larger than"},
		{"/moved.json", "302"},
		{"/no-uris.json", "redirect_uris is required"},
		{"/missing.json", "404"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			cfg := o.config(docs.URL+tt.path, "", cb.URL, oauth2.AuthStyleInParams)
			q, status, body := cb.visit(t, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()),
				oauth2.SetAuthURLParam("tenant", "acme")))
			if q != nil || status != http.StatusBadRequest || !strings.Contains(body, tt.want) {
				t.Errorf("got %v, %d %s; want a 400 page saying %q", q, status, body, tt.want)
			}
		})
	}

	t.Run("plain http needs the loopback option", func(t *testing.T) {
		strict := startOAuth(t, nil)
		cfg := strict.config(docs.URL+"/good.json", "", cb.URL, oauth2.AuthStyleInParams)
		q, status, body := cb.visit(t, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()),
			oauth2.SetAuthURLParam("tenant", "acme")))
		if q != nil || status != http.StatusBadRequest || !strings.Contains(body, "must be https") {
			t.Errorf("got %v, %d %s; want a 400 page", q, status, body)
		}
	})
}
