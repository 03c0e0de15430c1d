package threengram

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The introspection endpoint (RFC 7662): who a token is for. A client
// authenticates as at the token endpoint and may ask only about tokens
// issued to it (a public client by its client_id), which tells it nothing
// its token does not already let it do, and lets a host say whom an
// account signed in as. Any other token, and one that is unknown, expired
// or revoked, is {"active": false}, as the RFC asks, so that the endpoint
// is no oracle for tokens.

// introspection is RFC 7662 §2.2's answer.
type introspection struct {
	Active    bool   `json:"active"`
	Scope     string `json:"scope,omitempty"`
	ClientID  string `json:"client_id,omitempty"`
	Username  string `json:"username,omitempty"`
	Sub       string `json:"sub,omitempty"`
	TokenType string `json:"token_type,omitempty"`
	Exp       int64  `json:"exp,omitempty"`
	Aud       string `json:"aud,omitempty"`
	Iss       string `json:"iss,omitempty"`
}

func (a *authServer) introspect(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthErr("invalid_request", "the body is not a form"))
		return
	}
	client, err := a.authenticateClient(r)
	if err != nil {
		a.tokenError(w, r, err)
		return
	}
	token := r.PostForm.Get("token")
	if token == "" {
		writeJSON(w, http.StatusBadRequest, oauthErr("invalid_request", "token is missing"))
		return
	}
	t, err := a.store.introspectAccessToken(r.Context(), token)
	switch {
	case errors.Is(err, ErrInvalidToken), err == nil && t.ClientID != client.ID:
		writeJSON(w, http.StatusOK, introspection{Active: false})
	case err != nil:
		a.logger.Error("introspection", "err", err)
		writeJSON(w, http.StatusInternalServerError, oauthErr("server_error", "the server failed; try again"))
	default:
		writeJSON(w, http.StatusOK, introspection{Active: true, Scope: strings.Join(t.Scopes, " "), ClientID: t.ClientID,
			Username: t.Tenant, Sub: t.Tenant, TokenType: "Bearer", Exp: t.Expires, Aud: t.Resource, Iss: a.issuer})
	}
}

// introspected is what introspection says of a live access token.
type introspected struct {
	accessToken
	ClientID string
	Expires  int64 // seconds since the epoch
}

// introspectAccessToken returns what token stands for and whose client it
// was issued to; an unknown, expired or revoked token is ErrInvalidToken.
func (s *Store) introspectAccessToken(ctx context.Context, token string) (introspected, error) {
	var t introspected
	var scopes string
	var expires int64
	err := s.db.QueryRowContext(ctx, `SELECT g.tenant, t.scopes, g.resource, g.client_id, t.expires_at
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
		WHERE t.token_hash = ? AND t.kind = 'access' AND g.revoked = 0`, hashToken(token)).Scan(&t.Tenant, &scopes, &t.Resource, &t.ClientID, &expires)
	if errors.Is(err, sql.ErrNoRows) || err == nil && expires <= s.now().UnixNano() {
		return introspected{}, fmt.Errorf("%w: unknown, revoked or expired access token", ErrInvalidToken)
	}
	if err != nil {
		return introspected{}, fmt.Errorf("introspecting an access token: %w", err)
	}
	t.Scopes, t.Expires = strings.Fields(scopes), expires/1e9
	return t, nil
}
