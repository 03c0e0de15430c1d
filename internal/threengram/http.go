package threengram

import (
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configures NewHTTPHandler. The zero value is usable.
type HTTPOptions struct {
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// OAuth, when set, makes the server the authorization server of its
	// tenants as well as the protected resource (see OAuthOptions).
	OAuth *OAuthOptions
}

// NewHTTPHandler serves the MCP endpoint at /mcp over Streamable HTTP. Every
// request must carry a bearer token that verifies and that holds the
// memory:read scope; anything else is refused before MCP sees it (401 for a
// missing, unknown, revoked or expired token, 403 for a missing scope). The
// tenant is the token's, never the request's.
//
// Tokens of `threengram token` (Store.IssueToken) always verify. With
// opts.OAuth, the handler also serves the OAuth metadata and the
// authorization server's endpoints, and accepts the access tokens it
// issues; NewHTTPHandler panics if opts.OAuth does not Validate.
func NewHTTPHandler(store *Store, opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := NewServer(store, &ServerOptions{Logger: logger})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, Logger: logger})
	mux := http.NewServeMux()
	var as *authServer
	if opts.OAuth != nil {
		as = newAuthServer(store, opts.OAuth, logger)
		as.routes(mux)
	}
	mux.Handle("/mcp", newBearerGate(store, as, mcpHandler, logger))
	return mux
}
