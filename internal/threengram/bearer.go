package threengram

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// bearerGate admits to the MCP endpoint only requests whose bearer token
// verifies and holds memory:read, and answers the others as RFC 6750 §3
// says: 401 with error="invalid_token" for a token that is unknown,
// revoked, expired or meant for another resource (no error at all when
// none was sent), 403 with error="insufficient_scope" and the scope needed,
// so that a client can step up. In the OAuth mode every challenge names
// the protected resource metadata (RFC 9728 §5.1).
//
// go-sdk's auth.RequireBearerToken cannot say either error, and checks
// expiry against the wall clock rather than the store's; so the gate does
// the checking, and RequireBearerToken behind it only hands the verified
// TokenInfo to the MCP handler, which reads it from the request's context.
type bearerGate struct {
	store  *Store
	oauth  *authServer // nil without the OAuth mode
	next   http.Handler
	logger *slog.Logger
}

type verifiedKey struct{}

func newBearerGate(store *Store, oauth *authServer, mcpHandler http.Handler, logger *slog.Logger) *bearerGate {
	handOver := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		return ctx.Value(verifiedKey{}).(*auth.TokenInfo), nil
	}
	next := auth.RequireBearerToken(handOver, &auth.RequireBearerTokenOptions{
		AllowMissingExpiration: true, // the gate has checked expiry, on the store's clock
	})(mcpHandler)
	return &bearerGate{store: store, oauth: oauth, next: next, logger: logger}
}

func (g *bearerGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		g.challenge(w, http.StatusUnauthorized, "", "a bearer token is required")
		return
	}
	info, err := g.verify(r.Context(), strings.TrimSpace(token))
	switch {
	case errors.Is(err, ErrInvalidToken):
		g.challenge(w, http.StatusUnauthorized, "invalid_token", "the token is unknown, revoked, expired or for another resource")
	case err != nil:
		g.logger.Error("verifying a bearer token", "err", err)
		http.Error(w, "the server failed to verify the token", http.StatusInternalServerError)
	case !slices.Contains(info.Scopes, ScopeRead):
		g.challenge(w, http.StatusForbidden, "insufficient_scope", "the token lacks "+ScopeRead)
	default:
		g.next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verifiedKey{}, info)))
	}
}

// verify checks a token of `threengram token` or, in the OAuth mode, an
// access token, whose audience must be this server.
func (g *bearerGate) verify(ctx context.Context, token string) (*auth.TokenInfo, error) {
	if g.oauth != nil && strings.HasPrefix(token, "tga_") {
		a, err := g.store.verifyAccessToken(ctx, token)
		if err != nil {
			return nil, err
		}
		if !g.oauth.isOurResource(a.Resource) {
			return nil, ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: a.Tenant, Scopes: a.Scopes}, nil
	}
	tenant, scopes, err := g.store.VerifyToken(ctx, token)
	if err != nil {
		return nil, err
	}
	return &auth.TokenInfo{UserID: tenant, Scopes: scopes}, nil
}

// challenge refuses the request with a Bearer challenge. description is
// also the body.
func (g *bearerGate) challenge(w http.ResponseWriter, status int, code, description string) {
	var params []string
	if code != "" {
		params = append(params, `error="`+code+`"`, `error_description="`+description+`"`)
	}
	params = append(params, `scope="`+ScopeRead+`"`)
	if g.oauth != nil {
		params = append(params, `resource_metadata="`+g.oauth.resourceMetadataURL()+`"`)
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	http.Error(w, description, status)
}
