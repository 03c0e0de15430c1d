package threengram

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The authorization endpoint. A GET validates the request and shows the
// login page: the store's tenants as radio buttons, Approve and Deny. The
// page posts the request back with the chosen tenant and a MAC of the
// request (so that no other site can post an approval for parameters of
// its choosing); approval redirects to redirect_uri with code, state and
// iss (RFC 9207). With OAuthOptions.AutoApprove, a GET that carries
// tenant=NAME approves NAME at once, for tests.

// authParams are the parameters of an authorization request, the ones the
// login form carries back and its MAC covers.
var authParams = []string{"response_type", "client_id", "redirect_uri", "state", "code_challenge",
	"code_challenge_method", "scope", "resource"}

// authRequest is a validated authorization request.
type authRequest struct {
	params      url.Values // the authParams as received
	client      oauthClient
	redirectURI string
	state       string
	challenge   string
	scopes      []string
	resource    string
}

func (a *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	var p url.Values
	switch r.Method {
	case http.MethodGet:
		p = r.URL.Query()
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := r.ParseForm(); err != nil {
			a.errorPage(w, http.StatusBadRequest, "The sign-in form could not be read.")
			return
		}
		p = r.PostForm
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	req, redirectable, err := a.parseAuthRequest(r.Context(), p)
	var oe *oauthError
	switch {
	case err != nil && !errors.As(err, &oe):
		a.logger.Error("authorization request", "err", err)
		a.errorPage(w, http.StatusInternalServerError, "The server failed; try again.")
	case err != nil && !redirectable: // no trustworthy redirect_uri: tell the person, not the client
		a.errorPage(w, http.StatusBadRequest, oe.Description)
	case err != nil:
		a.redirect(w, r, req, url.Values{"error": {oe.Code}, "error_description": {oe.Description}})
	case r.Method == http.MethodPost:
		a.decide(w, r, req, p)
	case a.opts.AutoApprove && p.Has("tenant"):
		a.approve(w, r, req, p.Get("tenant"))
	default:
		a.loginPage(w, r, req, p.Get("tenant"), "")
	}
}

// decide acts on the posted login form.
func (a *authServer) decide(w http.ResponseWriter, r *http.Request, req authRequest, p url.Values) {
	if !hmac.Equal([]byte(p.Get("csrf")), []byte(a.formMAC(req.params))) {
		a.errorPage(w, http.StatusBadRequest, "This sign-in form is not one this server showed, or the server has restarted since. Start the sign-in again.")
		return
	}
	if p.Get("action") != "approve" {
		a.redirect(w, r, req, url.Values{"error": {"access_denied"}, "error_description": {"the sign-in was denied"}})
		return
	}
	if !validTenant(p.Get("tenant")) {
		a.loginPage(w, r, req, "", "Pick a tenant.")
		return
	}
	a.approve(w, r, req, p.Get("tenant"))
}

// parseAuthRequest validates p. When the client or its redirect_uri cannot
// be trusted, the error is not redirectable (RFC 6749 §4.1.2.1): it goes
// to the person, never to the URI.
func (a *authServer) parseAuthRequest(ctx context.Context, p url.Values) (req authRequest, redirectable bool, err error) {
	for k, v := range p {
		if len(v) > 1 && k != "resource" {
			return req, false, oauthErr("invalid_request", "parameter %s given more than once", k)
		}
	}
	req.params = url.Values{}
	for _, k := range authParams {
		if v, ok := p[k]; ok {
			req.params[k] = v
		}
	}
	clientID := p.Get("client_id")
	if clientID == "" {
		return req, false, oauthErr("invalid_request", "client_id is missing")
	}
	if req.client, err = a.lookupClient(ctx, clientID); err != nil {
		return req, false, err
	}
	req.redirectURI = p.Get("redirect_uri")
	if req.redirectURI == "" {
		return req, false, oauthErr("invalid_request", "redirect_uri is missing")
	}
	if !redirectAllowed(req.client.RedirectURIs, req.redirectURI) {
		return req, false, oauthErr("invalid_request", "redirect_uri %q is not registered for this client", req.redirectURI)
	}
	req.state = p.Get("state")
	return req, true, a.checkAuthRequest(&req, p)
}

// checkAuthRequest checks what remains of an authorization request once
// its client and redirect_uri are known good; its errors are redirected.
func (a *authServer) checkAuthRequest(req *authRequest, p url.Values) error {
	if p.Get("response_type") != "code" {
		return oauthErr("unsupported_response_type", "response_type must be code")
	}
	if !slices.Contains(req.client.GrantTypes, "authorization_code") {
		return oauthErr("unauthorized_client", "the client did not register the authorization_code grant")
	}
	req.challenge = p.Get("code_challenge")
	if req.challenge == "" {
		return oauthErr("invalid_request", "code_challenge is required (PKCE with S256)")
	}
	if p.Get("code_challenge_method") != "S256" {
		return oauthErr("invalid_request", "code_challenge_method must be S256")
	}
	if !validChallenge(req.challenge) {
		return oauthErr("invalid_request", "code_challenge is not a base64url SHA-256")
	}
	var err error
	if req.scopes, err = parseScopes(p.Get("scope")); err != nil {
		return err
	}
	if len(req.scopes) == 0 {
		req.scopes = []string{ScopeRead}
	}
	switch rs := p["resource"]; {
	case len(rs) > 1:
		return oauthErr("invalid_target", "this server is one resource; name it once")
	case len(rs) == 1 && !a.isOurResource(rs[0]):
		return oauthErr("invalid_target", "resource %q is not served here; use %s", rs[0], a.resource)
	case len(rs) == 1:
		req.resource = rs[0]
	default:
		req.resource = a.resource
	}
	return nil
}

// validTenant accepts a tenant name: not empty, at most 128 bytes, no
// control characters.
func validTenant(t string) bool {
	return t != "" && len(t) <= 128 && !strings.ContainsFunc(t, unicode.IsControl)
}

// approve issues a code for tenant and sends the browser back to the
// client.
func (a *authServer) approve(w http.ResponseWriter, r *http.Request, req authRequest, tenant string) {
	if !validTenant(tenant) {
		a.redirect(w, r, req, url.Values{"error": {"invalid_request"}, "error_description": {"tenant is not a tenant name"}})
		return
	}
	code, err := a.store.saveCode(r.Context(), authCode{
		Tenant: tenant, ClientID: req.client.ID, RedirectURI: req.redirectURI, Challenge: req.challenge,
		Scopes: req.scopes, Resource: req.resource, Refresh: req.client.mayRefresh(),
	}, codeTTL)
	if err != nil {
		a.logger.Error("saving authorization code", "err", err)
		a.redirect(w, r, req, url.Values{"error": {"server_error"}, "error_description": {"the server failed; try again"}})
		return
	}
	a.logger.Info("approved sign-in", "tenant", tenant, "client", req.client.ID)
	a.redirect(w, r, req, url.Values{"code": {code}})
}

// redirect sends the authorization response to the client's redirect_uri,
// adding state and iss (RFC 9207) to vals. After the login form's POST it
// answers 303, so that the browser follows with a GET.
func (a *authServer) redirect(w http.ResponseWriter, r *http.Request, req authRequest, vals url.Values) {
	u, _ := url.Parse(req.redirectURI) // parsed when it was matched
	q := u.Query()
	for k, v := range vals {
		q[k] = v
	}
	if req.state != "" {
		q.Set("state", req.state)
	}
	q.Set("iss", a.issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", u.String())
	status := http.StatusFound
	if r.Method == http.MethodPost {
		status = http.StatusSeeOther
	}
	w.WriteHeader(status)
}

// formMAC signs an authorization request for the login form.
func (a *authServer) formMAC(params url.Values) string {
	m := hmac.New(sha256.New, a.csrfKey)
	m.Write([]byte(params.Encode()))
	return hex.EncodeToString(m.Sum(nil))
}

type loginData struct {
	Client  string
	Scopes  []scopeLine
	Error   string
	Hidden  []hiddenField
	Tenants []tenantChoice
}

type hiddenField struct{ Name, Value string }

// scopeLine is one scope asked for, as the login page says it.
type scopeLine struct{ Name, Meaning string }

// scopeMeanings says what each scope lets the client do: the login page
// lists exactly the scopes asked for, no more.
var scopeMeanings = map[string]string{
	ScopeRead:          "read the tenant's memories",
	ScopeWrite:         "write the tenant's memories: remember new ones, revise and archive them",
	ScopeOfflineAccess: "stay signed in: renew its access without asking you again",
}

// scopeLines describes scopes in the order asked.
func scopeLines(scopes []string) []scopeLine {
	out := make([]scopeLine, len(scopes))
	for i, s := range scopes {
		out[i] = scopeLine{s, scopeMeanings[s]}
	}
	return out
}

type tenantChoice struct {
	Name    string
	Checked bool
}

// loginPage shows the tenants to pick from, with pick preselected.
func (a *authServer) loginPage(w http.ResponseWriter, r *http.Request, req authRequest, pick, problem string) {
	tenants, err := a.store.tenants(r.Context())
	if err != nil {
		a.logger.Error("login page", "err", err)
		a.errorPage(w, http.StatusInternalServerError, "The server failed; try again.")
		return
	}
	d := loginData{Client: req.client.displayName(), Scopes: scopeLines(req.scopes), Error: problem}
	for _, k := range authParams {
		if v, ok := req.params[k]; ok {
			d.Hidden = append(d.Hidden, hiddenField{k, v[0]})
		}
	}
	d.Hidden = append(d.Hidden, hiddenField{"csrf", a.formMAC(req.params)})
	for _, t := range tenants {
		d.Tenants = append(d.Tenants, tenantChoice{t, t == pick})
	}
	writePage(w, http.StatusOK, loginTemplate(), d)
}

// errorPage tells the person at the browser what went wrong.
func (a *authServer) errorPage(w http.ResponseWriter, status int, msg string) {
	writePage(w, status, errorTemplate(), msg)
}

func writePage(w http.ResponseWriter, status int, t *template.Template, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	t.Execute(w, data)
}

const pageStyle = `<style>body{font:16px system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em}` +
	`fieldset{border:1px solid #ccc;padding:.5em 1em}label{display:block;margin:.4em 0}` +
	`button{margin:1em .5em 0 0;padding:.4em 1.2em}.problem{color:#b00}</style>`

// The pages are parsed on first use, not at start: every process that
// links this package (attachectl, the app) would otherwise parse them
// before main, to read one memory.
var loginTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to threengram</title>` + pageStyle + `</head>
<body><h1>Sign in to threengram</h1>
<p><strong>{{.Client}}</strong> asks to act for one tenant of this server. If you approve, it may:</p>
<ul>{{range .Scopes}}<li>{{.Meaning}} (<code>{{.Name}}</code>)</li>
{{end}}</ul>
<p>Pick the tenant to sign in as. The grant is for that tenant only, and for nothing beyond the list above.</p>
{{with .Error}}<p class="problem">{{.}}</p>{{end}}
<form method="post" action="/authorize">
{{range .Hidden}}<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{end}}<fieldset><legend>Tenant</legend>
{{range .Tenants}}<label><input type="radio" name="tenant" value="{{.Name}}"{{if .Checked}} checked{{end}}> {{.Name}}</label>
{{else}}<label>Tenant name <input name="tenant"></label>
{{end}}</fieldset>
<button name="action" value="approve">Approve</button><button name="action" value="deny">Deny</button>
</form></body></html>
`))
})

var errorTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>threengram sign-in failed</title>` + pageStyle + `</head>
<body><h1>Sign-in failed</h1><p class="problem">{{.}}</p></body></html>
`))
})
