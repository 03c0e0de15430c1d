package ctl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/npmpeer"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// binPath is attachectl, built once: the tests run it as a person would,
// so exit codes, stdout and stderr are the real ones. attachectl-full is
// built beside it, where attachectl looks for it.
var binPath string

func TestMain(m *testing.M) {
	var err error
	if binPath, err = testbin.Path("cmd/attachectl"); err != nil {
		panic(err)
	}
	if _, err = testbin.Path("cmd/attachectl-full"); err != nil {
		panic(err)
	}
	testbin.Main(m)
}

type result struct {
	stdout, stderr string
	code           int
}

// ctl runs attachectl with a private config and data dir.
func ctl(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runBin(t, binPath, env, args...)
}

// runBin runs the binary at bin with env added to this process's.
func runBin(t *testing.T, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func privateEnv(t *testing.T) []string {
	dir := t.TempDir()
	return []string{"ATTACHE_CONFIG=" + filepath.Join(dir, "config.json"), "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data")}
}

func TestDemoEndToEnd(t *testing.T) {
	env := privateEnv(t)
	r := ctl(t, env, "servers")
	if r.code != 0 || !strings.Contains(r.stdout, "demo") || !strings.Contains(r.stdout, "acme,globex") {
		t.Fatalf("servers: %+v", r)
	}
	r = ctl(t, env, "templates", "demo")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "threengram://memory/{id}\t") {
		t.Fatalf("templates: %+v", r)
	}
	r = ctl(t, env, "complete", "demo", "threengram://memory/{id}", "id", "m")
	ids := strings.Fields(r.stdout)
	if r.code != 0 || len(ids) != 100 {
		t.Fatalf("complete: code %d, %d ids; want 100", r.code, len(ids))
	}
	uri := "threengram://memory/" + ids[0]
	r = ctl(t, env, "read", "demo", uri, "--json")
	var out readOutput
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("read --json: %+v", r)
	}
	if out.Host.URI != uri || len(out.Result.Contents) != 1 || out.Result.Contents[0].Text == nil || out.Host.ProtocolVersion == "" {
		t.Errorf("read --json = %+v", out)
	}
	// The other tenant cannot see it, and gets "not found", exit code 3.
	r = ctl(t, env, "read", "demo", "--account", "globex", uri)
	if r.code != exitNotFound || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "not found") {
		t.Errorf("globex read: %+v; want one line and exit 3", r)
	}
	r = ctl(t, env, "read", "demo", uri, "--raw")
	if r.code != 0 || !strings.Contains(r.stdout, `"method":"resources/read"`) || !strings.Contains(r.stdout, `"ttlMs":86400000`) {
		t.Errorf("read --raw: %+v", r)
	}
}

func TestExitCodes(t *testing.T) {
	env := privateEnv(t)
	for _, tt := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"unknown server", []string{"read", "nosuch", "x://y"}, exitUsage, "no server named"},
		{"missing argument", []string{"read", "demo"}, exitUsage, "takes 2 arguments"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"refused expansion", []string{"expand", "threengram://memory/{id}", "id=.."}, exitUsage, "dot-segment"},
		{"connection refused", []string{"read", "--url", "http://127.0.0.1:1/mcp", "x://y"}, exitTransport, "connection"},
		{"command file missing", []string{"read", "--stdio", "/nonexistent/server --flag", "x://y"}, exitUsage, "attachectl: the server's command names /nonexistent/server, which does not exist (usage)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ctl(t, env, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.says) || strings.Contains(r.stderr, "goroutine") {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", r.code, r.stderr, tt.code, tt.says)
			}
		})
	}
}

func TestExpandPrintsURI(t *testing.T) {
	r := ctl(t, privateEnv(t), "expand", "test://items/{category}/{name}", "category=a/b", "name=x y")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "test://items/a%2Fb/x%20y" {
		t.Errorf("expand: %+v", r)
	}
}

func TestAdHocHTTPWithHeaderAndUnauthorized(t *testing.T) {
	s := seededStore(t)
	ctx := context.Background()
	tok, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
	srv := httptest.NewServer(threengram.NewHTTPHandler(s, nil))
	defer srv.Close()
	env := privateEnv(t)
	r := ctl(t, env, "templates", "--url", srv.URL+"/mcp", "--header", "Authorization=Bearer "+tok)
	if r.code != 0 || !strings.Contains(r.stdout, "threengram://memory/{id}") {
		t.Fatalf("templates over HTTP: %+v", r)
	}
	ids := strings.Fields(ctl(t, env, "complete", "--url", srv.URL+"/mcp", "--header", "Authorization=Bearer "+tok,
		threengram.MemoryTemplate, "id", "m").stdout)
	uri := threengram.MemoryURI(ids[0])
	if r := ctl(t, env, "read", "--url", srv.URL+"/mcp", "--header", "Authorization=Bearer "+tok, uri); r.code != 0 {
		t.Fatalf("read with the token: %+v", r)
	}
	// The body is now cached privately for that token. Another token on
	// the same ad-hoc server is another authorization context: no hit.
	r = ctl(t, env, "read", "--url", srv.URL+"/mcp", "--header", "Authorization=Bearer tg_bogus", uri)
	if r.code != exitUnauthorized || !strings.Contains(r.stderr, "401") {
		t.Errorf("bad token: %+v; want exit 4 naming 401, never the cached body", r)
	}
}

func everythingPath(t *testing.T) string { return npmpeer.Entry(t, "server-everything") }

func TestEverythingThroughCLI(t *testing.T) {
	stdio := `node "` + everythingPath(t) + `" stdio` // quoted, as a shell would take it
	env := privateEnv(t)
	r := ctl(t, env, "resources", "--stdio", stdio)
	if r.code != 0 || strings.Count(r.stdout, "demo://resource/static/document/") != 7 {
		t.Fatalf("resources: %+v", r)
	}
	r = ctl(t, env, "read", "--stdio", stdio, "demo://resource/static/document/nope.md")
	if r.code != exitNotFound {
		t.Errorf("missing resource: %+v; want exit 3", r)
	}
	out := filepath.Join(t.TempDir(), "blob.bin")
	r = ctl(t, env, "read", "--stdio", stdio, "demo://resource/dynamic/blob/3", "--out", out)
	body, err := os.ReadFile(out)
	if r.code != 0 || err != nil || len(body) == 0 {
		t.Errorf("read --out: %+v, %v", r, err)
	}
	r = ctl(t, env, "read", "--stdio", stdio, "demo://resource/dynamic/blob/3")
	if r.code != 0 || !strings.Contains(r.stdout, "[blob ") {
		t.Errorf("blob summary: %+v", r)
	}
	r = ctl(t, env, "complete", "--stdio", stdio, "demo://resource/dynamic/text/{resourceId}", "resourceId", "1")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "1") {
		t.Errorf("complete: %+v", r)
	}
}

func TestFaultsThroughCLI(t *testing.T) {
	mcptestd := testbin.Build(t, "internal/mcptest/mcptestd")
	env := privateEnv(t)
	for _, tt := range []struct {
		mode string
		code int
		says string
	}{
		{mcptest.ModeEmptyContents, exitServer, "empty contents array"},
		{mcptest.ModeBothTextAndBlob, exitServer, "both text and blob"},
		{mcptest.ModeNeitherTextNorBlob, exitServer, "neither text nor blob"},
		{mcptest.ModeBadBase64, exitServer, "could not be understood"},
		{mcptest.ModeResultNotObject, exitServer, "could not be understood"},
		{mcptest.ModeNotJSON, exitServer, "which is not JSON-RPC"},
		{mcptest.ModeNotJSONInit, exitServer, "which is not JSON-RPC"},
		{mcptest.ModeWrongURI, exitServer, "another uri"},
		{mcptest.ModeNotFound32002, exitNotFound, "no such resource"},
		{mcptest.ModeServerFault, exitServer, "server failed"},
		{mcptest.ModeVersionMismatch, exitServer, "protocol version"},
		{mcptest.ModeDieOnRead, exitTransport, "connection"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			r := ctl(t, env, "read", "--stdio", mcptestd+" --mode "+tt.mode+" --stdio", mcptest.RawResourceURI)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.says) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line mentioning %q", r.code, r.stderr, tt.code, tt.says)
			}
		})
	}
	r := ctl(t, env, "read", "--stdio", mcptestd+" --mode "+mcptest.ModeOversize+" --stdio --body-bytes 40000000", mcptest.RawResourceURI)
	if r.code != exitServer || !strings.Contains(r.stderr, "size limit") {
		t.Errorf("oversize: %+v; want exit 5 naming the size limit", r)
	}
}

// TestReadJSONIsHonest: read --json keeps the server's result apart from
// what the host adds. server-everything sends no ttlMs or cacheScope: the
// result has none, and no field the server never sent (a size); threengram
// sends both, and they appear as sent; a hit carries the contents only.
func TestReadJSONIsHonest(t *testing.T) {
	stdio := `node "` + everythingPath(t) + `" stdio`
	env := privateEnv(t)
	decode := func(r result) (map[string]any, readOutput) {
		t.Helper()
		var raw map[string]any
		var out readOutput
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &raw) != nil || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("read --json: %+v", r)
		}
		return raw["result"].(map[string]any), out
	}
	res, out := decode(ctl(t, env, "read", "--stdio", stdio, "demo://resource/static/document/architecture.md", "--json"))
	if _, ok := res["ttlMs"]; ok {
		t.Errorf("result has a ttlMs the server never sent: %v", res)
	}
	for _, c := range res["contents"].([]any) {
		if _, ok := c.(map[string]any)["size"]; ok {
			t.Errorf("a content has a size the server never sent: %v", c)
		}
	}
	if len(out.Host.Sizes) != 1 || out.Host.Sizes[0] != len(*out.Result.Contents[0].Text) {
		t.Errorf("host sizes %v for %d bytes", out.Host.Sizes, len(*out.Result.Contents[0].Text))
	}
	if !strings.Contains(out.Host.Cache.NotStored, "sent no ttlMs") {
		t.Errorf("why not stored: %q; want it to say the server sent no ttlMs", out.Host.Cache.NotStored)
	}

	uri := "threengram://memory/" + strings.Fields(ctl(t, env, "complete", "demo", threengram.MemoryTemplate, "id", "m").stdout)[0]
	res, _ = decode(ctl(t, env, "read", "demo", uri, "--json"))
	if res["ttlMs"] != float64(86400000) || res["cacheScope"] != "private" {
		t.Errorf("threengram's hints as sent: %v", res)
	}
	res, out = decode(ctl(t, env, "read", "demo", uri, "--json"))
	if _, ok := res["ttlMs"]; ok || out.Host.Cache.Status != "hit" || out.Host.Cache.TTLMs != 86400000 {
		t.Errorf("a hit: result %v, cache %+v; want the contents only, the hints under host.cache", res, out.Host.Cache)
	}
}

// A URL that answers a JSON-RPC POST with an HTTP error and no MCP body
// (an HTML error page, a bare 400 or 501) is no MCP endpoint: exit 6, a
// line that says to check the URL, and no advice to sign in.
func TestNotAnMCPEndpoint(t *testing.T) {
	env := privateEnv(t)
	for _, status := range []int{http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusNotImplemented} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			io.WriteString(w, "<html><body>Not here</body></html>")
		}))
		r := ctl(t, env, "read", "--url", srv.URL+"/mcp", "x://y")
		srv.Close()
		if r.code != exitTransport || !strings.Contains(r.stderr, "no MCP endpoint at") ||
			!strings.Contains(r.stderr, fmt.Sprintf("(HTTP %d)", status)) || strings.Contains(strings.ToLower(r.stderr), "sign in") {
			t.Errorf("HTTP %d: exit %d, stderr %q; want exit %d saying there is no MCP endpoint", status, r.code, r.stderr, exitTransport)
		}
	}
}
