package threengram

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The token endpoint: the authorization_code grant (PKCE S256 verified,
// redirect_uri and resource matched against the authorization request) and
// the refresh_token grant (rotating: each refresh token works once, and
// presenting a spent one revokes the grant). Clients authenticate as they
// registered: none, client_secret_basic or client_secret_post; a client
// ID metadata document client is public. Errors follow RFC 6749 §5.2.

// tokenResponse is RFC 6749 §5.1.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthErr("invalid_request", "the body is not a form"))
		return
	}
	p := r.PostForm
	for k, v := range p {
		if len(v) > 1 {
			writeJSON(w, http.StatusBadRequest, oauthErr("invalid_request", "parameter %s given more than once", k))
			return
		}
	}
	client, err := a.authenticateClient(r)
	if err != nil {
		a.tokenError(w, r, err)
		return
	}
	var issued issuedTokens
	switch gt := p.Get("grant_type"); gt {
	case "authorization_code":
		issued, err = a.exchange(r.Context(), client, p)
	case "refresh_token":
		issued, err = a.refresh(r.Context(), client, p)
	case "":
		err = oauthErr("invalid_request", "grant_type is missing")
	default:
		err = oauthErr("unsupported_grant_type", "grant_type %q is not supported", gt)
	}
	if err != nil {
		a.tokenError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, tokenResponse{
		AccessToken:  issued.Access,
		TokenType:    "Bearer",
		ExpiresIn:    max(1, int64(issued.TTL.Seconds())),
		RefreshToken: issued.Refresh,
		Scope:        strings.Join(issued.Scopes, " "),
	})
}

// tokenError answers err: an invalid_client with 401 (and a Basic
// challenge when the client tried Basic), other OAuth errors with 400,
// anything else with a 500 server_error whose detail goes to the log.
func (a *authServer) tokenError(w http.ResponseWriter, r *http.Request, err error) {
	var oe *oauthError
	switch {
	case !errors.As(err, &oe):
		a.logger.Error("token endpoint", "err", err)
		writeJSON(w, http.StatusInternalServerError, oauthErr("server_error", "the server failed; try again"))
	case oe.Code == "invalid_client":
		if _, _, basic := r.BasicAuth(); basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="threengram"`)
		}
		writeJSON(w, http.StatusUnauthorized, oe)
	default:
		writeJSON(w, http.StatusBadRequest, oe)
	}
}

// authenticateClient finds the client of a token request and checks that
// it authenticated the way it registered.
func (a *authServer) authenticateClient(r *http.Request) (oauthClient, error) {
	id, secret, basic := r.BasicAuth()
	if basic { // RFC 6749 §2.3.1: form-encoded before base64
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return oauthClient{}, oauthErr("invalid_client", "the Authorization header is not form-encoded")
		}
	}
	formID, formSecret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	switch {
	case basic && formSecret != "":
		return oauthClient{}, oauthErr("invalid_request", "use one client authentication method, not two")
	case basic && formID != "" && formID != id:
		return oauthClient{}, oauthErr("invalid_request", "client_id differs from the Authorization header's")
	case !basic:
		id, secret = formID, formSecret
	}
	if id == "" {
		return oauthClient{}, oauthErr("invalid_client", "client authentication failed: no client_id")
	}
	c := oauthClient{ID: id, AuthMethod: "none"} // a metadata document client
	if !isClientIDURL(id) {
		var err error
		if c, err = a.store.client(r.Context(), id); errors.Is(err, errUnknownClient) {
			return oauthClient{}, oauthErr("invalid_client", "client authentication failed: unknown client")
		} else if err != nil {
			return oauthClient{}, err
		}
	}
	used := "none"
	switch {
	case basic && secret != "":
		used = "client_secret_basic"
	case !basic && secret != "":
		used = "client_secret_post"
	}
	if used != c.AuthMethod {
		return oauthClient{}, oauthErr("invalid_client", "client authentication failed: the client registered %s, not %s", c.AuthMethod, used)
	}
	if used != "none" && subtle.ConstantTimeCompare([]byte(hashToken(secret)), []byte(c.SecretHash)) != 1 {
		return oauthClient{}, oauthErr("invalid_client", "client authentication failed")
	}
	return c, nil
}

// exchange is the authorization_code grant.
func (a *authServer) exchange(ctx context.Context, client oauthClient, p url.Values) (issuedTokens, error) {
	code, redirectURI, verifier := p.Get("code"), p.Get("redirect_uri"), p.Get("code_verifier")
	switch {
	case code == "":
		return issuedTokens{}, oauthErr("invalid_request", "code is missing")
	case redirectURI == "":
		return issuedTokens{}, oauthErr("invalid_request", "redirect_uri is missing")
	case p.Has("resource") && !a.isOurResource(p.Get("resource")):
		return issuedTokens{}, oauthErr("invalid_target", "resource %q is not served here", p.Get("resource"))
	}
	check := func(c authCode) error {
		switch {
		case c.RedirectURI != redirectURI:
			return invalidGrant("redirect_uri differs from the authorization request's")
		case !pkceVerifies(verifier, c.Challenge):
			return invalidGrant("code_verifier does not match the code_challenge")
		case p.Has("resource") && !oauthex.MatchesResource([]string{p.Get("resource")}, c.Resource):
			return oauthErr("invalid_target", "resource differs from the authorization request's")
		}
		return nil
	}
	return a.store.exchangeCode(ctx, code, client.ID, check, a.life)
}

// refresh is the refresh_token grant. A scope parameter narrows the new
// access token within the grant; the new refresh token keeps the grant's
// scopes (RFC 6749 §6).
func (a *authServer) refresh(ctx context.Context, client oauthClient, p url.Values) (issuedTokens, error) {
	token := p.Get("refresh_token")
	if token == "" {
		return issuedTokens{}, oauthErr("invalid_request", "refresh_token is missing")
	}
	check := func(g grantInfo) ([]string, error) {
		if p.Has("resource") && !oauthex.MatchesResource([]string{p.Get("resource")}, g.Resource) {
			return nil, oauthErr("invalid_target", "resource differs from the grant's")
		}
		if !p.Has("scope") {
			return g.Scopes, nil
		}
		asked, err := parseScopes(p.Get("scope"))
		if err != nil {
			return nil, err
		}
		for _, s := range asked {
			if !slices.Contains(g.Scopes, s) {
				return nil, oauthErr("invalid_scope", "scope %q was not granted", s)
			}
		}
		return asked, nil
	}
	return a.store.refresh(ctx, token, client.ID, check, a.life)
}

// pkceVerifies reports whether verifier is well formed and its S256
// transform is challenge.
func pkceVerifies(verifier, challenge string) bool {
	if !validVerifier(verifier) {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}
