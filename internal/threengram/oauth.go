package threengram

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The OAuth mode: the server is both the protected resource (/mcp) and the
// authorization server of its own tenants, following the MCP authorization
// spec (RFC 9728 protected resource metadata, RFC 8414 server metadata,
// OAuth 2.1 authorization code with PKCE S256, RFC 8707 resource
// indicators, RFC 9207 iss, RFC 7591 dynamic registration and client ID
// metadata documents). It is written here, on go-sdk's oauthex types,
// rather than on an OAuth server library: none of those on offer does
// resource binding, iss, DCR and CIMD together, and each brings its own
// storage model, where here grants must live in the store so that erase
// can revoke them in its transaction.
//
// The endpoints, under the issuer (the base URL, such as
// http://127.0.0.1:8080):
//
//	/.well-known/oauth-protected-resource/mcp  RFC 9728, resource <issuer>/mcp
//	/.well-known/oauth-protected-resource      RFC 9728, resource <issuer>
//	/.well-known/oauth-authorization-server    RFC 8414 (also /.well-known/openid-configuration)
//	/authorize  the login page: pick a tenant, approve
//	/token      authorization_code and refresh_token grants
//	/register   dynamic client registration
//	/introspect RFC 7662 token introspection, for a token's own client
//
// Choosing a tenant on the login page is the whole of signing in: this is a
// reference server for loopback, whose tenants are sample accounts, not an
// identity provider.

// Scope a client asks for to get refresh tokens (SEP-2207). The server
// accepts it and reports it back; what decides refresh tokens is the
// client's registered grant types.
const ScopeOfflineAccess = "offline_access"

// Lifetimes used when OAuthOptions leaves them zero.
const (
	DefaultAccessTokenTTL  = 10 * time.Minute
	DefaultRefreshTokenTTL = 30 * 24 * time.Hour
)

// codeTTL is how long an authorization code can be exchanged.
const codeTTL = time.Minute

// OAuthOptions turns on the OAuth mode of NewHTTPHandler.
type OAuthOptions struct {
	// Issuer is the server's base URL, such as http://127.0.0.1:8080: the
	// authorization server's issuer and the prefix of every endpoint. It
	// has a scheme (http or https) and a host, and no path, query or
	// fragment. Required.
	Issuer string
	// AccessTokenTTL is the life of an access token; 0 means
	// DefaultAccessTokenTTL.
	AccessTokenTTL time.Duration
	// RefreshTokenTTL is the life of a refresh token, renewed by each
	// refresh; 0 means DefaultRefreshTokenTTL.
	RefreshTokenTTL time.Duration
	// AutoApprove lets a GET of the authorization endpoint with a tenant
	// parameter (tenant=acme) approve that tenant with no person at the
	// login page. It is for tests, which sign in by following redirects
	// with an HTTP client; it must stay off anywhere else.
	AutoApprove bool
	// LoopbackClientIDs accepts client ID metadata document URLs over plain
	// http on loopback hosts (127.0.0.0/8, [::1], localhost), for tests.
	// Otherwise such a URL must be https.
	LoopbackClientIDs bool
	// HTTPClient fetches client ID metadata documents; nil means
	// http.DefaultTransport. Redirects are never followed, and each fetch
	// is bounded by cimdTimeout and cimdMaxBytes.
	HTTPClient *http.Client
}

// Validate reports whether the options can serve: whether Issuer is an
// http(s) URL with a host and nothing after it.
func (o *OAuthOptions) Validate() error {
	u, err := url.Parse(o.Issuer)
	if err != nil {
		return fmt.Errorf("issuer %q: %w", o.Issuer, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return fmt.Errorf("issuer %q: want scheme://host[:port], with no path, query or fragment", o.Issuer)
	}
	if o.AccessTokenTTL < 0 || o.RefreshTokenTTL < 0 {
		return fmt.Errorf("token lifetimes must not be negative")
	}
	return nil
}

// authServer is the authorization server and the resource's metadata.
// It is safe for concurrent use: everything that changes is in the store.
type authServer struct {
	store    *Store
	opts     OAuthOptions
	issuer   string // the base URL
	resource string // issuer + "/mcp", the resource identifier of the endpoint
	life     lifetimes
	csrfKey  []byte // signs the login form; new with each process
	fetch    *http.Client
	logger   *slog.Logger
}

// newAuthServer panics on options that do not Validate: a caller that
// takes the issuer from a person validates it first.
func newAuthServer(store *Store, opts *OAuthOptions, logger *slog.Logger) *authServer {
	if err := opts.Validate(); err != nil {
		panic("threengram: " + err.Error())
	}
	a := &authServer{
		store:    store,
		opts:     *opts,
		issuer:   opts.Issuer,
		resource: opts.Issuer + "/mcp",
		life:     lifetimes{Access: opts.AccessTokenTTL, Refresh: opts.RefreshTokenTTL},
		csrfKey:  make([]byte, 32),
		logger:   logger,
	}
	if a.life.Access == 0 {
		a.life.Access = DefaultAccessTokenTTL
	}
	if a.life.Refresh == 0 {
		a.life.Refresh = DefaultRefreshTokenTTL
	}
	rand.Read(a.csrfKey)
	fetch := http.Client{}
	if opts.HTTPClient != nil {
		fetch = *opts.HTTPClient
	}
	fetch.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	a.fetch = &fetch
	return a
}

// resourceMetadataURL is the path-aware RFC 9728 URL of /mcp, named in
// every challenge.
func (a *authServer) resourceMetadataURL() string {
	return a.issuer + "/.well-known/oauth-protected-resource/mcp"
}

// routes mounts the metadata and the authorization server on mux.
func (a *authServer) routes(mux *http.ServeMux) {
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(a.resourceMetadata(a.resource)))
	mux.Handle("/.well-known/oauth-protected-resource", auth.ProtectedResourceMetadataHandler(a.resourceMetadata(a.issuer)))
	mux.HandleFunc("/.well-known/oauth-authorization-server", a.serveMetadata)
	mux.HandleFunc("/.well-known/openid-configuration", a.serveMetadata)
	mux.HandleFunc("/authorize", a.authorize)
	mux.HandleFunc("/token", a.token)
	mux.HandleFunc("/register", a.register)
	mux.HandleFunc("/introspect", a.introspect)
}

// resourceMetadata describes the resource identified by resource: the
// endpoint (<issuer>/mcp) at the path-aware URL, the server as a whole
// (<issuer>) at the root one, as RFC 9728 §3.3 requires the document's
// resource to match the URL it was fetched from. Tokens for either
// identifier are accepted at /mcp.
func (a *authServer) resourceMetadata(resource string) *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               resource,
		AuthorizationServers:   []string{a.issuer},
		ScopesSupported:        []string{ScopeRead, ScopeWrite},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "threengram memory",
	}
}

// isOurResource reports whether resource (an RFC 8707 resource indicator
// or a token's audience) names this server: the endpoint or the root,
// with or without a trailing slash.
func (a *authServer) isOurResource(resource string) bool {
	return oauthex.MatchesResource([]string{resource}, a.resource) || oauthex.MatchesResource([]string{resource}, a.issuer)
}

// serverMetadata is RFC 8414 authorization server metadata. It is not
// oauthex.AuthServerMeta, which would publish an empty jwks_uri: this
// server signs nothing.
type serverMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	IntrospectionEndpoint                      string   `json:"introspection_endpoint"`
	IntrospectionEndpointAuthMethodsSupported  []string `json:"introspection_endpoint_auth_methods_supported"`
	ScopesSupported                            []string `json:"scopes_supported"`
	ResponseTypesSupported                     []string `json:"response_types_supported"`
	ResponseModesSupported                     []string `json:"response_modes_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
}

func (a *authServer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*") // public, as RFC 8414 intends
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	writeJSON(w, http.StatusOK, serverMetadata{
		Issuer:                a.issuer,
		AuthorizationEndpoint: a.issuer + "/authorize",
		TokenEndpoint:         a.issuer + "/token",
		RegistrationEndpoint:  a.issuer + "/register",
		IntrospectionEndpoint: a.issuer + "/introspect",
		IntrospectionEndpointAuthMethodsSupported: supportedAuthMethods,
		ScopesSupported:                            supportedScopes,
		ResponseTypesSupported:                     []string{"code"},
		ResponseModesSupported:                     []string{"query"},
		GrantTypesSupported:                        supportedGrantTypes,
		TokenEndpointAuthMethodsSupported:          supportedAuthMethods,
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
		ClientIDMetadataDocumentSupported:          true,
	})
}

var (
	supportedScopes      = []string{ScopeRead, ScopeWrite, ScopeOfflineAccess}
	supportedGrantTypes  = []string{"authorization_code", "refresh_token"}
	supportedAuthMethods = []string{"none", "client_secret_basic", "client_secret_post"}
)

// parseScopes splits a scope parameter, refusing scopes this server does
// not know (invalid_scope) and dropping repeats.
func parseScopes(s string) ([]string, error) {
	var out []string
	for _, sc := range strings.Fields(s) {
		if !slices.Contains(supportedScopes, sc) {
			return nil, oauthErr("invalid_scope", "unknown scope %q", sc)
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// oauthError is an OAuth error response (RFC 6749 §4.1.2.1, §5.2; RFC 7591
// §3.2.2; RFC 8707 §2): its code is the kind a client matches, its
// description is safe to show.
type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

func (e *oauthError) Error() string { return e.Code + ": " + e.Description }

func oauthErr(code, format string, args ...any) *oauthError {
	return &oauthError{Code: code, Description: fmt.Sprintf(format, args...)}
}

func invalidGrant(description string) error {
	return &oauthError{Code: "invalid_grant", Description: description}
}

// writeJSON writes v as JSON with status. Nothing the authorization server
// answers may be cached (RFC 6749 §5.1).
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
