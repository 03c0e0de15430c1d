package threengram

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// What the authorization server keeps in the store: registered clients,
// authorization codes, grants and their tokens (see migrations, step 2).
// Every secret is stored as its SHA-256 hash. A grant is one approved
// sign-in; revoking it (erase, a replayed code or refresh token) ends every
// token issued under it, because a token is valid only while its grant is.

// oauthClient is a client registered through DCR, or read from its client
// ID metadata document.
type oauthClient struct {
	ID string
	// SecretHash is the hash of the client secret; "" for a public client.
	SecretHash   string
	AuthMethod   string // none, client_secret_basic or client_secret_post
	RedirectURIs []string
	GrantTypes   []string
	Name         string
}

// mayRefresh reports whether the client registered the refresh_token grant,
// and so gets refresh tokens.
func (c oauthClient) mayRefresh() bool { return slices.Contains(c.GrantTypes, "refresh_token") }

// errUnknownClient is returned for a client_id the store does not know.
var errUnknownClient = errors.New("unknown client")

func (s *Store) registerClient(ctx context.Context, c oauthClient) error {
	uris, _ := json.Marshal(c.RedirectURIs)
	grants, _ := json.Marshal(c.GrantTypes)
	_, err := s.db.ExecContext(ctx, `INSERT INTO oauth_clients
		(client_id, secret_hash, auth_method, redirect_uris, grant_types, client_name, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		c.ID, nullString(c.SecretHash), c.AuthMethod, string(uris), string(grants), c.Name, s.now().UnixNano())
	if err != nil {
		return fmt.Errorf("registering client %s: %w", c.ID, err)
	}
	return nil
}

func (s *Store) client(ctx context.Context, id string) (oauthClient, error) {
	c := oauthClient{ID: id}
	var uris, grants string
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(secret_hash, ''), auth_method, redirect_uris, grant_types, client_name
		FROM oauth_clients WHERE client_id = ?`, id).Scan(&c.SecretHash, &c.AuthMethod, &uris, &grants, &c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return oauthClient{}, errUnknownClient
	}
	if err != nil {
		return oauthClient{}, fmt.Errorf("reading client %s: %w", id, err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return oauthClient{}, fmt.Errorf("client %s: redirect_uris: %w", id, err)
	}
	if err := json.Unmarshal([]byte(grants), &c.GrantTypes); err != nil {
		return oauthClient{}, fmt.Errorf("client %s: grant_types: %w", id, err)
	}
	return c, nil
}

// authCode is what an authorization code stands for until it is exchanged.
type authCode struct {
	Tenant      string
	ClientID    string
	RedirectURI string
	Challenge   string // the PKCE S256 code_challenge
	Scopes      []string
	Resource    string // the RFC 8707 resource, the audience of the tokens
	Refresh     bool   // whether the grant gets refresh tokens
}

// saveCode stores a new authorization code for c, valid for ttl, and
// returns it.
func (s *Store) saveCode(ctx context.Context, c authCode, ttl time.Duration) (string, error) {
	code := "tgc_" + rand.Text()
	_, err := s.db.ExecContext(ctx, `INSERT INTO oauth_codes
		(code_hash, tenant, client_id, redirect_uri, code_challenge, scopes, resource, refresh, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		hashToken(code), c.Tenant, c.ClientID, c.RedirectURI, c.Challenge, strings.Join(c.Scopes, " "),
		c.Resource, c.Refresh, s.now().Add(ttl).UnixNano())
	if err != nil {
		return "", fmt.Errorf("saving authorization code: %w", err)
	}
	return code, nil
}

// lifetimes are how long issued tokens live.
type lifetimes struct {
	Access, Refresh time.Duration
}

// issuedTokens is the answer of the token endpoint.
type issuedTokens struct {
	Access  string
	Refresh string // "" when the client gets no refresh token
	Scopes  []string
	TTL     time.Duration // of the access token
}

// exchangeCode redeems code for client clientID: check (PKCE, redirect_uri,
// resource) runs on what the code stands for, then a grant is created and
// its first tokens issued, all in one transaction. A code works once: a
// second use revokes the grant the first one created (RFC 6749 §4.1.2), and
// a failed check spends the code.
func (s *Store) exchangeCode(ctx context.Context, code, clientID string, check func(authCode) error, life lifetimes) (issuedTokens, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return issuedTokens{}, err
	}
	defer tx.Rollback()
	var c authCode
	var scopes, grantID string
	var expires int64
	err = tx.QueryRowContext(ctx, `SELECT tenant, client_id, redirect_uri, code_challenge, scopes, resource, refresh,
		expires_at, COALESCE(grant_id, '') FROM oauth_codes WHERE code_hash = ?`, hashToken(code)).Scan(
		&c.Tenant, &c.ClientID, &c.RedirectURI, &c.Challenge, &scopes, &c.Resource, &c.Refresh, &expires, &grantID)
	if errors.Is(err, sql.ErrNoRows) {
		return issuedTokens{}, invalidGrant("unknown, spent or expired authorization code")
	}
	if err != nil {
		return issuedTokens{}, fmt.Errorf("reading authorization code: %w", err)
	}
	c.Scopes = strings.Fields(scopes)
	now := s.now()
	var refusal error
	switch {
	case grantID != "":
		if _, err := tx.ExecContext(ctx, `UPDATE oauth_grants SET revoked = 1 WHERE id = ?`, grantID); err != nil {
			return issuedTokens{}, fmt.Errorf("revoking the grant of a replayed code: %w", err)
		}
		return issuedTokens{}, commitRefusal(tx, invalidGrant("authorization code already used; the grant it gave is revoked"))
	case c.ClientID != clientID:
		return issuedTokens{}, invalidGrant("authorization code issued to another client")
	case expires <= now.UnixNano():
		refusal = invalidGrant("authorization code expired")
	default:
		refusal = check(c)
	}
	if refusal != nil {
		if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_codes WHERE code_hash = ?`, hashToken(code)); err != nil {
			return issuedTokens{}, fmt.Errorf("spending a refused code: %w", err)
		}
		return issuedTokens{}, commitRefusal(tx, refusal)
	}
	grantID = "g" + rand.Text()
	if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_grants (id, tenant, client_id, scopes, resource, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, grantID, c.Tenant, c.ClientID, scopes, c.Resource, now.UnixNano()); err != nil {
		return issuedTokens{}, fmt.Errorf("creating grant: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE oauth_codes SET grant_id = ? WHERE code_hash = ?`, grantID, hashToken(code)); err != nil {
		return issuedTokens{}, fmt.Errorf("spending code: %w", err)
	}
	issued, err := issueTokens(ctx, tx, grantID, c.Scopes, c.Scopes, c.Refresh, life, now)
	if err != nil {
		return issuedTokens{}, err
	}
	return issued, tx.Commit()
}

// commitRefusal commits what a refusal changed (a spent code, a revoked
// grant) and returns the refusal, or the commit's error.
func commitRefusal(tx *sql.Tx, refusal error) error {
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("recording a refusal: %w", err)
	}
	return refusal
}

// grantInfo is what a refresh token's grant says.
type grantInfo struct {
	Tenant   string
	ClientID string
	Resource string
	Scopes   []string // of the refresh token
}

// refresh exchanges refreshToken of client clientID for a new access token
// and a new refresh token (rotation): the old refresh token is spent, and
// presenting it again revokes the whole grant, as a replay would. check
// decides the access token's scopes (a subset of the grant's) and vets the
// resource.
func (s *Store) refresh(ctx context.Context, refreshToken, clientID string, check func(grantInfo) ([]string, error), life lifetimes) (issuedTokens, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return issuedTokens{}, err
	}
	defer tx.Rollback()
	var g grantInfo
	var grantID, scopes string
	var expires int64
	var used, revoked bool
	err = tx.QueryRowContext(ctx, `SELECT t.grant_id, t.scopes, t.expires_at, t.used, g.tenant, g.client_id, g.resource, g.revoked
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ? AND t.kind = 'refresh'`,
		hashToken(refreshToken)).Scan(&grantID, &scopes, &expires, &used, &g.Tenant, &g.ClientID, &g.Resource, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return issuedTokens{}, invalidGrant("unknown refresh token")
	}
	if err != nil {
		return issuedTokens{}, fmt.Errorf("reading refresh token: %w", err)
	}
	g.Scopes = strings.Fields(scopes)
	now := s.now()
	switch {
	case revoked:
		return issuedTokens{}, invalidGrant("the grant was revoked")
	case g.ClientID != clientID:
		return issuedTokens{}, invalidGrant("refresh token issued to another client")
	case used:
		if _, err := tx.ExecContext(ctx, `UPDATE oauth_grants SET revoked = 1 WHERE id = ?`, grantID); err != nil {
			return issuedTokens{}, fmt.Errorf("revoking the grant of a replayed refresh token: %w", err)
		}
		return issuedTokens{}, commitRefusal(tx, invalidGrant("refresh token already used; the grant is revoked"))
	case expires <= now.UnixNano():
		return issuedTokens{}, invalidGrant("refresh token expired")
	}
	accessScopes, err := check(g)
	if err != nil {
		return issuedTokens{}, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE oauth_tokens SET used = 1 WHERE token_hash = ?`, hashToken(refreshToken)); err != nil {
		return issuedTokens{}, fmt.Errorf("spending refresh token: %w", err)
	}
	issued, err := issueTokens(ctx, tx, grantID, accessScopes, g.Scopes, true, life, now)
	if err != nil {
		return issuedTokens{}, err
	}
	return issued, tx.Commit()
}

// issueTokens issues an access token with accessScopes and, if refresh, a
// refresh token with refreshScopes under grantID. It also drops tokens and
// unexchanged codes that have expired, so that the tables stay the size of
// what is live.
func issueTokens(ctx context.Context, tx *sql.Tx, grantID string, accessScopes, refreshScopes []string, refresh bool, life lifetimes, now time.Time) (issuedTokens, error) {
	out := issuedTokens{Access: "tga_" + rand.Text(), Scopes: accessScopes, TTL: life.Access}
	type row struct {
		token, kind string
		scopes      []string
		ttl         time.Duration
	}
	tokens := []row{{out.Access, "access", accessScopes, life.Access}}
	if refresh {
		out.Refresh = "tgr_" + rand.Text()
		tokens = append(tokens, row{out.Refresh, "refresh", refreshScopes, life.Refresh})
	}
	for _, t := range tokens {
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_tokens (token_hash, grant_id, kind, scopes, expires_at)
			VALUES (?, ?, ?, ?, ?)`, hashToken(t.token), grantID, t.kind, strings.Join(t.scopes, " "), now.Add(t.ttl).UnixNano()); err != nil {
			return issuedTokens{}, fmt.Errorf("issuing %s token: %w", t.kind, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_tokens WHERE expires_at <= ?`, now.UnixNano()); err != nil {
		return issuedTokens{}, fmt.Errorf("dropping expired tokens: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_codes WHERE grant_id IS NULL AND expires_at <= ?`, now.UnixNano()); err != nil {
		return issuedTokens{}, fmt.Errorf("dropping expired codes: %w", err)
	}
	return out, nil
}

// accessToken is what a live access token stands for.
type accessToken struct {
	Tenant   string
	Scopes   []string
	Resource string // the audience
}

// verifyAccessToken returns what token stands for; an unknown or expired
// token, or one whose grant is revoked, is ErrInvalidToken.
func (s *Store) verifyAccessToken(ctx context.Context, token string) (accessToken, error) {
	var a accessToken
	var scopes string
	var expires int64
	err := s.db.QueryRowContext(ctx, `SELECT g.tenant, t.scopes, g.resource, t.expires_at
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
		WHERE t.token_hash = ? AND t.kind = 'access' AND g.revoked = 0`, hashToken(token)).Scan(&a.Tenant, &scopes, &a.Resource, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return accessToken{}, fmt.Errorf("%w: unknown or revoked access token", ErrInvalidToken)
	}
	if err != nil {
		return accessToken{}, fmt.Errorf("verifying access token: %w", err)
	}
	if expires <= s.now().UnixNano() {
		return accessToken{}, fmt.Errorf("%w: access token expired", ErrInvalidToken)
	}
	a.Scopes = strings.Fields(scopes)
	return a, nil
}

// tenants returns every tenant the store knows, for the login page.
func (s *Store) tenants(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT tenant FROM memories UNION SELECT tenant FROM tokens ORDER BY tenant`)
	if err != nil {
		return nil, fmt.Errorf("listing tenants: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
