package threengram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configures NewHTTPHandler. The zero value is usable.
type HTTPOptions struct {
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
}

// NewHTTPHandler serves the MCP endpoint at /mcp over Streamable HTTP. Every
// request must carry a bearer token that store knows, that is not revoked and
// that holds the memory:read scope; anything else is refused before MCP sees
// it (401 for a missing, unknown or revoked token, 403 for a missing scope).
// The tenant is the token's, never the request's.
func NewHTTPHandler(store *Store, opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	srv := NewServer(store, &ServerOptions{Logger: opts.Logger})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, Logger: opts.Logger})
	bearer := auth.RequireBearerToken(tokenVerifier(store), &auth.RequireBearerTokenOptions{
		Scopes:                 []string{ScopeRead},
		AllowMissingExpiration: true, // revocation, not expiry, ends a threengram token
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(mcpHandler))
	return mux
}

// tokenVerifier looks tokens up in the store. Any failure to verify is a
// refusal: the server fails closed.
func tokenVerifier(store *Store) auth.TokenVerifier {
	return func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		tenant, scopes, err := store.VerifyToken(ctx, token)
		if errors.Is(err, ErrInvalidToken) {
			return nil, fmt.Errorf("%w: unknown or revoked token", auth.ErrInvalidToken)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: verifying token: %v", auth.ErrInvalidToken, err)
		}
		return &auth.TokenInfo{UserID: tenant, Scopes: scopes, Expiration: time.Time{}}, nil
	}
}
