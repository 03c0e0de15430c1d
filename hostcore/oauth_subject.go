package hostcore

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

// Who a grant is for. The host signs an account in without learning whom
// the person signed in as: the authorization code flow returns tokens
// that say nothing to their client. Where the authorization server's
// metadata names an introspection endpoint (RFC 7662), the host asks it
// about the new access token, as the client the token was issued to, and
// keeps the answer's username (else its sub) as the grant's Subject, for
// the card and `accounts` to show. The token goes only to the server that
// issued it, which already knows it; nothing is asked where the metadata
// names no endpoint, and a failure only leaves the subject unknown.

// subjectOf asks meta's introspection endpoint who tok is for.
func (o *oauthHandler) subjectOf(ctx context.Context, meta authServerMeta, cfg *oauth2.Config, tok *oauth2.Token) string {
	endpoint := meta.IntrospectionEndpoint
	if endpoint == "" || tok.AccessToken == "" {
		return ""
	}
	if u, err := url.Parse(endpoint); err != nil || !tokensMayGo(u) {
		return ""
	}
	form := url.Values{"token": {tok.AccessToken}, "token_type_hint": {"access_token"}}
	basic := cfg.ClientSecret != "" && cfg.Endpoint.AuthStyle != oauth2.AuthStyleInParams
	if !basic {
		form.Set("client_id", cfg.ClientID)
		if cfg.ClientSecret != "" {
			form.Set("client_secret", cfg.ClientSecret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if basic {
		req.SetBasicAuth(url.QueryEscape(cfg.ClientID), url.QueryEscape(cfg.ClientSecret))
	}
	resp, err := o.c.host.oauthHTTPClient().Do(req)
	if err != nil {
		o.c.host.log.Info("introspecting the new token failed", "server", o.c.Server.Name, "err", err)
		return ""
	}
	defer resp.Body.Close()
	var ans struct {
		Active   bool   `json:"active"`
		Username string `json:"username"`
		Sub      string `json:"sub"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&ans) != nil || !ans.Active {
		o.c.host.log.Info("the token introspection said nothing of use", "server", o.c.Server.Name, "status", resp.StatusCode)
		return ""
	}
	if ans.Username != "" {
		return clip(ans.Username)
	}
	return clip(ans.Sub)
}
