package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolServer is a Streamable HTTP server with the tools named, each of
// which records its call; the tool "broken" reports a failure of its own.
func toolServer(t *testing.T, names ...string) (endpoint string, called func() []string) {
	t.Helper()
	var mu sync.Mutex
	var calls []string
	s := mcp.NewServer(&mcp.Implementation{Name: "tools", Version: "1"}, nil)
	for _, name := range names {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				mu.Lock()
				calls = append(calls, name+" "+string(req.Params.Arguments))
				mu.Unlock()
				return &mcp.CallToolResult{IsError: name == "broken", Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil
			})
	}
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(calls)
	}
}

// TestConformanceClient: the command the conformance suite drives lists
// the tools and calls each with empty arguments; a tool that reports a
// failure fails the command; it is not in the help.
func TestConformanceClient(t *testing.T) {
	env := privateEnv(t)
	endpoint, called := toolServer(t, "alpha", "beta")
	r := ctl(t, env, "conformance-client", "--url", endpoint)
	if r.code != 0 || !strings.Contains(r.stdout, "2 tools") || !strings.Contains(r.stdout, "called beta: beta done") {
		t.Fatalf("conformance-client: %+v", r)
	}
	if diff := cmp.Diff([]string{"alpha {}", "beta {}"}, called()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}

	endpoint, _ = toolServer(t, "broken")
	if r := ctl(t, env, "conformance-client", "--url", endpoint); r.code != exitServer || !strings.Contains(r.stderr, "the tool broken failed") {
		t.Errorf("a tool that fails: %+v; want exit %d naming it", r, exitServer)
	}

	if r := ctl(t, env, "--help"); strings.Contains(r.stdout, "conformance") {
		t.Errorf("the test client shows in the help:\n%s", r.stdout)
	}
}

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
