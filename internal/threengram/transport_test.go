package threengram_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// threengramBinary builds cmd/threengram once per test run.
func threengramBinary(t *testing.T) string { return testbin.Build(t, "cmd/threengram") }

func TestStdioSubprocess(t *testing.T) {
	bin := threengramBinary(t)
	db := filepath.Join(t.TempDir(), "tg.db")
	ctx := context.Background()
	connect := func(tenant string) *mcp.ClientSession {
		cmd := exec.Command(bin, "--db", db, "--seed", "--stdio", "--tenant", tenant)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connecting over stdio as %s: %v", tenant, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	acme, globex := connect("acme"), connect("globex")
	tmpl, err := acme.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 {
		t.Fatalf("templates over stdio: %v %v", tmpl, err)
	}
	own := ownIDs(t, acme)
	res, err := acme.ReadResource(ctx, &mcp.ReadResourceParams{URI: threengram.MemoryURI(own[0])})
	if err != nil || res.TTLMs != 86_400_000 || res.CacheScope != "private" {
		t.Fatalf("read over stdio = %+v, %v", res, err)
	}
	if got, want := notFoundError(t, acme, threengram.MemoryURI(ownIDs(t, globex)[0])),
		notFoundError(t, acme, threengram.MemoryURI("mnope")); got != want {
		t.Errorf("over stdio, cross-tenant %s != missing %s", got, want)
	}
	vals := complete(t, acme, own[0][:3])
	if !slices.Contains(vals, own[0]) {
		t.Errorf("completion over stdio missed %s: %v", own[0], vals)
	}
}

func TestStdioNeedsTenant(t *testing.T) {
	out, err := exec.Command(threengramBinary(t), "--db", filepath.Join(t.TempDir(), "x.db"), "--stdio").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--tenant") {
		t.Errorf("stdio without --tenant: %v, %s", err, out)
	}
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func httpSession(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rawRead posts one resources/read as a 2026-07-28 client would, and returns
// the status and body bytes.
func rawRead(t *testing.T, url, token, uri string) (int, string) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":%q,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, uri)
	req, _ := http.NewRequest("POST", url, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "resources/read")
	req.Header.Set("Mcp-Name", uri)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHTTPTwoTenants(t *testing.T) {
	s := seededStore(t)
	ctx := context.Background()
	srv := httptest.NewServer(threengram.NewHTTPHandler(s, nil))
	defer srv.Close()
	url := srv.URL + "/mcp"
	acmeTok, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead, threengram.ScopeWrite})
	globexTok, _ := s.IssueToken(ctx, "globex", []string{threengram.ScopeRead})
	acme, globex := httpSession(t, url, acmeTok), httpSession(t, url, globexTok)

	own, foreign := ownIDs(t, acme), ownIDs(t, globex)
	res, err := acme.ReadResource(ctx, &mcp.ReadResourceParams{URI: threengram.MemoryURI(own[0])})
	if err != nil || res.TTLMs != 86_400_000 || res.CacheScope != "private" {
		t.Fatalf("read over HTTP = %+v, %v", res, err)
	}
	if vals := complete(t, acme, "m"); slices.ContainsFunc(vals, func(v string) bool { return slices.Contains(foreign, v) }) {
		t.Error("HTTP completion offered another tenant's id")
	}

	// Byte for byte on the wire, ids aside.
	foreignURI, missingURI := threengram.MemoryURI(foreign[0]), threengram.MemoryURI("mnotthere")
	c1, b1 := rawRead(t, url, acmeTok, foreignURI)
	c2, b2 := rawRead(t, url, acmeTok, missingURI)
	b1, b2 = strings.ReplaceAll(b1, foreignURI, "URI"), strings.ReplaceAll(b2, missingURI, "URI")
	if c1 != c2 || b1 != b2 || !strings.Contains(b1, "-32602") {
		t.Errorf("cross-tenant vs missing on the wire:\n%d %s\n%d %s", c1, b1, c2, b2)
	}

	// Writes need memory:write; globex's token has only memory:read.
	w, err := globex.CallTool(ctx, &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{"content": "x", "topic": "y", "memoryType": "fact"}})
	if err == nil && !w.IsError {
		t.Error("remember succeeded without memory:write")
	}
}

func TestHTTPRefusesBadTokens(t *testing.T) {
	s := seededStore(t)
	ctx := context.Background()
	srv := httptest.NewServer(threengram.NewHTTPHandler(s, nil))
	defer srv.Close()
	url := srv.URL + "/mcp"
	uri := threengram.MemoryURI("m0")
	noScope, _ := s.IssueToken(ctx, "globex", []string{"profile"})
	revoked, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
	if _, err := s.Erase(ctx, "acme"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, token string
		want        int
	}{
		{"missing", "", 401},
		{"unknown", "tg_0000", 401},
		{"revoked by erase", revoked, 401},
		{"without memory:read", noScope, 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, body := rawRead(t, url, tt.token, uri); code != tt.want {
				t.Errorf("status %d (%s); want %d", code, body, tt.want)
			}
		})
	}
}

func TestEraseCommandRevokesTokens(t *testing.T) {
	bin := threengramBinary(t)
	db := filepath.Join(t.TempDir(), "tg.db")
	tok, err := exec.Command(bin, "token", "--db", db, "--seed", "--tenant", "acme").Output()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "erase", "--db", db, "--tenant", "acme").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "revoked 1 token and") {
		t.Fatalf("erase: %v %s", err, out)
	}
	s, err := threengram.OpenStore(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.VerifyToken(context.Background(), strings.TrimSpace(string(tok))); err == nil {
		t.Error("token still verifies after erase")
	}
}
