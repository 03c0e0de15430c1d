package threengram

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Clients come in two ways. Dynamic client registration (RFC 7591) at
// /register stores the client and issues a client_id, and a secret when
// the client asks for client_secret_basic or client_secret_post. A client
// ID metadata document is a client_id that is an https URL: the server
// fetches it when the client starts a sign-in and takes its redirect_uris
// and grant_types from it. Such a client is public (token_endpoint_auth
// method none): a document anyone can read can hold no secret.

// Bounds on fetching a client ID metadata document.
const (
	cimdTimeout  = 5 * time.Second
	cimdMaxBytes = 5 << 10 // what the draft suggests
)

// displayName is what the login page calls the client.
func (c oauthClient) displayName() string {
	if isClientIDURL(c.ID) {
		u, _ := url.Parse(c.ID)
		if c.Name != "" {
			return c.Name + " (" + u.Host + ")"
		}
		return c.ID
	}
	if c.Name != "" {
		return c.Name
	}
	return "A client (" + c.ID + ")"
}

// isClientIDURL reports whether id names a client ID metadata document
// rather than a registered client (whose ids start tgcl_).
func isClientIDURL(id string) bool {
	return strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://")
}

// lookupClient returns the client id names: registered, or described by
// its metadata document. Its errors are *oauthError unless the store failed.
func (a *authServer) lookupClient(ctx context.Context, id string) (oauthClient, error) {
	if isClientIDURL(id) {
		return a.fetchClient(ctx, id)
	}
	c, err := a.store.client(ctx, id)
	if errors.Is(err, errUnknownClient) {
		return oauthClient{}, oauthErr("invalid_client", "unknown client_id %q", id)
	}
	return c, err
}

// register is the dynamic client registration endpoint.
func (a *authServer) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var m oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&m); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthErr("invalid_client_metadata", "the body is not client metadata: %v", err))
		return
	}
	c, err := clientFromMetadata(&m, "client_secret_basic") // RFC 7591's default
	if err != nil {
		writeJSON(w, http.StatusBadRequest, err)
		return
	}
	c.ID = "tgcl_" + rand.Text()
	var secret string
	if c.AuthMethod != "none" {
		secret = "tgs_" + rand.Text()
		c.SecretHash = hashToken(secret)
	}
	if err := a.store.registerClient(r.Context(), c); err != nil {
		a.logger.Error("registering client", "err", err)
		writeJSON(w, http.StatusInternalServerError, oauthErr("server_error", "the server failed; try again"))
		return
	}
	m.RedirectURIs, m.GrantTypes, m.TokenEndpointAuthMethod = c.RedirectURIs, c.GrantTypes, c.AuthMethod
	m.ResponseTypes = []string{"code"}
	resp := registration{ClientRegistrationMetadata: m, ClientID: c.ID, ClientSecret: secret,
		ClientIDIssuedAt: a.store.now().Unix()}
	if secret != "" {
		resp.ClientSecretExpiresAt = new(int64) // 0: never
	}
	writeJSON(w, http.StatusCreated, resp)
}

// registration is the RFC 7591 §3.2.1 response. It is not
// oauthex.ClientRegistrationResponse, which leaves out a
// client_secret_expires_at of 0, required alongside a secret.
type registration struct {
	oauthex.ClientRegistrationMetadata
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret,omitempty"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at"`
	ClientSecretExpiresAt *int64 `json:"client_secret_expires_at,omitempty"`
}

// clientFromMetadata checks client metadata, from a registration or a
// metadata document, filling in the defaults (defaultMethod for
// token_endpoint_auth_method, authorization_code for grant_types).
func clientFromMetadata(m *oauthex.ClientRegistrationMetadata, defaultMethod string) (oauthClient, *oauthError) {
	c := oauthClient{AuthMethod: m.TokenEndpointAuthMethod, GrantTypes: m.GrantTypes, Name: m.ClientName}
	if len(m.RedirectURIs) == 0 {
		return c, oauthErr("invalid_redirect_uri", "redirect_uris is required")
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return c, oauthErr("invalid_redirect_uri", "redirect_uri %q: %v", u, err)
		}
	}
	c.RedirectURIs = m.RedirectURIs
	if c.AuthMethod == "" {
		c.AuthMethod = defaultMethod
	}
	if !slices.Contains(supportedAuthMethods, c.AuthMethod) {
		return c, oauthErr("invalid_client_metadata", "token_endpoint_auth_method %q is not supported; use one of %s",
			c.AuthMethod, strings.Join(supportedAuthMethods, ", "))
	}
	if len(c.GrantTypes) == 0 {
		c.GrantTypes = []string{"authorization_code"}
	}
	for _, g := range c.GrantTypes {
		if !slices.Contains(supportedGrantTypes, g) {
			return c, oauthErr("invalid_client_metadata", "grant type %q is not supported", g)
		}
	}
	if !slices.Contains(c.GrantTypes, "authorization_code") {
		return c, oauthErr("invalid_client_metadata", "grant_types must include authorization_code")
	}
	for _, rt := range m.ResponseTypes {
		if rt != "code" {
			return c, oauthErr("invalid_client_metadata", "response type %q is not supported", rt)
		}
	}
	if _, err := parseScopes(m.Scope); err != nil {
		return c, oauthErr("invalid_client_metadata", "%s", err.(*oauthError).Description)
	}
	return c, nil
}

// checkRedirectURI accepts what RFC 8252 allows a native client (a loopback
// http URI, a private-use scheme with a dot in it) and https URIs.
func checkRedirectURI(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return err
	case !u.IsAbs() || u.Fragment != "" || u.User != nil:
		return errors.New("want an absolute URI without fragment or userinfo")
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
		return nil
	case u.Scheme == "http":
		return errors.New("plain http is for loopback hosts only")
	case strings.Contains(u.Scheme, "."):
		return nil // a private-use scheme such as com.example.app
	default:
		return fmt.Errorf("scheme %q is not a redirect scheme", u.Scheme)
	}
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redirectAllowed reports whether got is one of the registered redirect
// URIs. A loopback http URI matches whatever its port (RFC 8252 §7.3): a
// native client listens on a port it learns only when it starts.
func redirectAllowed(registered []string, got string) bool {
	g, err := url.Parse(got)
	if err != nil || g.Fragment != "" {
		return false
	}
	for _, r := range registered {
		if r == got {
			return true
		}
		u, err := url.Parse(r)
		if err == nil && u.Scheme == "http" && g.Scheme == "http" && isLoopbackHost(u.Hostname()) &&
			u.Hostname() == g.Hostname() && u.Path == g.Path && u.RawQuery == g.RawQuery && g.User == nil {
			return true
		}
	}
	return false
}

// checkClientIDURL checks the form of a client ID metadata document URL:
// https (or, with LoopbackClientIDs, http on a loopback host), with a
// path, and without fragment, userinfo or dot segments.
func (a *authServer) checkClientIDURL(id string) error {
	u, err := url.Parse(id)
	if err != nil {
		return err
	}
	loopbackHTTP := u.Scheme == "http" && a.opts.LoopbackClientIDs && isLoopbackHost(u.Hostname())
	switch {
	case u.Scheme != "https" && !loopbackHTTP:
		return errors.New("a client ID metadata document URL must be https")
	case u.Host == "" || u.User != nil || u.Fragment != "":
		return errors.New("want a host, and no userinfo or fragment")
	case u.Path == "" || u.Path == "/":
		return errors.New("want a path")
	case slices.ContainsFunc(strings.Split(u.Path, "/"), func(s string) bool { return s == "." || s == ".." }):
		return errors.New("dot segments are not allowed")
	}
	return nil
}

// fetchClient reads the client ID metadata document at id.
func (a *authServer) fetchClient(ctx context.Context, id string) (oauthClient, error) {
	if err := a.checkClientIDURL(id); err != nil {
		return oauthClient{}, oauthErr("invalid_client", "client_id %q: %v", id, err)
	}
	body, err := a.fetchDocument(ctx, id)
	if err != nil {
		return oauthClient{}, oauthErr("invalid_client", "fetching the client ID metadata document %s: %v", id, err)
	}
	var doc struct {
		oauthex.ClientRegistrationMetadata
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return oauthClient{}, oauthErr("invalid_client", "client ID metadata document %s: %v", id, err)
	}
	switch {
	case doc.ClientID != id:
		return oauthClient{}, oauthErr("invalid_client", "the document at %s names client_id %q", id, doc.ClientID)
	case doc.ClientSecret != "":
		return oauthClient{}, oauthErr("invalid_client", "a client ID metadata document cannot carry a secret")
	case doc.TokenEndpointAuthMethod != "" && doc.TokenEndpointAuthMethod != "none":
		return oauthClient{}, oauthErr("invalid_client", "a client ID metadata document client authenticates with none, not %s",
			doc.TokenEndpointAuthMethod)
	}
	c, oe := clientFromMetadata(&doc.ClientRegistrationMetadata, "none")
	if oe != nil {
		return oauthClient{}, oauthErr("invalid_client", "client ID metadata document %s: %s", id, oe.Description)
	}
	c.ID = id
	return c, nil
}

// fetchDocument GETs url within cimdTimeout, refusing redirects, other
// statuses than 200 and bodies over cimdMaxBytes.
func (a *authServer) fetchDocument(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, cimdTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := a.fetch.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, cimdMaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > cimdMaxBytes {
		return nil, fmt.Errorf("larger than %d bytes", cimdMaxBytes)
	}
	return body, nil
}
