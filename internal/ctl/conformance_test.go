package ctl

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClientMetadataDocument checks the Client ID Metadata Document that a
// user hosts (assets/oauth-client-metadata.json) against what the host
// does when it signs in: a public native client that redirects to a
// loopback /callback on any port (RFC 8252 7.3), with refresh tokens.
func TestClientMetadataDocument(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "assets", "oauth-client-metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ClientID        string   `json:"client_id"`
		ClientName      string   `json:"client_name"`
		RedirectURIs    []string `json:"redirect_uris"`
		GrantTypes      []string `json:"grant_types"`
		ResponseTypes   []string `json:"response_types"`
		TokenAuthMethod string   `json:"token_endpoint_auth_method"`
		ApplicationType string   `json:"application_type"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if u, err := url.Parse(doc.ClientID); err != nil || u.Scheme != "https" || u.Path == "" || u.Path == "/" {
		t.Errorf("client_id %q: want an https URL with a path (where the document is hosted)", doc.ClientID)
	}
	want := []string{"Attaché", "http://127.0.0.1/callback", "authorization_code refresh_token", "code", "none", "native"}
	got := []string{doc.ClientName, strings.Join(doc.RedirectURIs, " "), strings.Join(doc.GrantTypes, " "),
		strings.Join(doc.ResponseTypes, " "), doc.TokenAuthMethod, doc.ApplicationType}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}
