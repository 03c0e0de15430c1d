package ctl

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/npmpeer"
)

// envWithConfig is privateEnv with a config that lists servers.
func envWithConfig(t *testing.T, servers ...config.ServerConfig) []string {
	t.Helper()
	env := privateEnv(t)
	b, err := json.Marshal(map[string]any{"servers": servers})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimPrefix(env[0], "ATTACHE_CONFIG="), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return env
}

// A server that declares no resources capability (the npm
// server-filesystem offers tools only) is an empty listing, exit 0, with a
// line on stderr that says why. (hostcore's test checks on the wire that
// nothing is asked.)
func TestServerWithoutResourcesThroughCLI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o600)
	files := config.ServerConfig{Name: "files", Command: "node", Args: []string{npmpeer.Entry(t, "server-filesystem"), dir}}
	env := envWithConfig(t, files)
	for _, tt := range []struct {
		args           []string
		stdout, stderr string
	}{
		{[]string{"resources", "files"}, "", "files offers no resources\n"},
		{[]string{"resources", "files", "--json"}, "[]\n", "files offers no resources\n"},
		{[]string{"templates", "files"}, "", "files offers no resources, so no templates\n"},
		{[]string{"templates", "files", "--json"}, "[]\n", "files offers no resources, so no templates\n"},
		{[]string{"complete", "files", "file:///{path}", "path", "a"}, "", "files offers no completion\n"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := ctl(t, env, tt.args...)
			if r.code != 0 || r.stdout != tt.stdout || r.stderr != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, %q, %q", r.code, r.stdout, r.stderr, tt.stdout, tt.stderr)
			}
		})
	}
}

// The legacy HTTP+SSE transport by flag, by config and by probe, against
// server-everything's sse mode: the same listing, and a read byte for byte
// what the same server serves over stdio.
func TestSSEThroughCLI(t *testing.T) {
	endpoint := npmpeer.EverythingSSE(t)
	const uri = "demo://resource/static/document/architecture.md"
	stdio := ctl(t, privateEnv(t), "read", "--stdio", `node "`+everythingPath(t)+`" stdio`, uri)
	if stdio.code != 0 || stdio.stdout == "" {
		t.Fatalf("read over stdio: %+v", stdio)
	}
	configured := envWithConfig(t, config.ServerConfig{Name: "legacy", URL: endpoint, Transport: config.TransportSSE})
	for _, tt := range []struct {
		name   string
		env    []string
		server []string
	}{
		{"flag", privateEnv(t), []string{"--url", endpoint, "--transport", "sse"}},
		{"config", configured, []string{"legacy"}},
		{"probe", privateEnv(t), []string{"--url", endpoint}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ctl(t, tt.env, append([]string{"resources"}, tt.server...)...)
			if r.code != 0 || strings.Count(r.stdout, "demo://resource/static/document/") != 7 {
				t.Fatalf("resources: %+v", r)
			}
			r = ctl(t, tt.env, append([]string{"read"}, append(tt.server, uri)...)...)
			if r.code != 0 || r.stdout != stdio.stdout {
				t.Errorf("read over sse: exit %d, %d bytes, stderr %q; want the %d bytes read over stdio", r.code, len(r.stdout), r.stderr, len(stdio.stdout))
			}
			r = ctl(t, tt.env, append([]string{"info"}, tt.server...)...)
			if r.code != 0 || !strings.Contains(r.stdout, "initialize over sse") {
				t.Errorf("info: %+v", r)
			}
		})
	}
	for _, args := range [][]string{
		{"resources", "--url", endpoint, "--transport", "websocket"},
		{"resources", "--stdio", "node x.js", "--transport", "sse"},
	} {
		if r := ctl(t, privateEnv(t), args...); r.code != exitUsage {
			t.Errorf("%v: %+v; want exit 2", args, r)
		}
	}
}

// handshakeCounter counts server/discover and initialize POSTed to h.
type handshakeCounter struct {
	mu   sync.Mutex
	seen map[string]int
	h    http.Handler
}

func (c *handshakeCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &msg) == nil && (msg.Method == "server/discover" || msg.Method == "initialize") {
		c.mu.Lock()
		c.seen[msg.Method]++
		c.mu.Unlock()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	c.h.ServeHTTP(w, r)
}

func (c *handshakeCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.seen
	c.seen = map[string]int{}
	return out
}

// A legacy server costs server/discover once: the next attachectl process,
// over the same data dir, goes straight to initialize.
func TestHandshakeRememberedAcrossProcesses(t *testing.T) {
	h, err := mcptest.Handler(mcptest.ModeV2025Nov, nil)
	if err != nil {
		t.Fatal(err)
	}
	counter := &handshakeCounter{seen: map[string]int{}, h: h}
	srv := httptest.NewServer(counter)
	t.Cleanup(srv.Close)
	env := privateEnv(t)
	first := ctl(t, env, "info", "--url", srv.URL+"/mcp")
	firstSent := counter.take()
	second := ctl(t, env, "info", "--url", srv.URL+"/mcp")
	secondSent := counter.take()
	if first.code != 0 || second.code != 0 {
		t.Fatalf("info: %+v, then %+v", first, second)
	}
	if firstSent["server/discover"] != 1 || secondSent["server/discover"] != 0 || secondSent["initialize"] != 1 {
		t.Errorf("the first process sent %v, the second %v; want the second without server/discover", firstSent, secondSent)
	}
	if !strings.Contains(first.stdout, "(probed)") || !strings.Contains(second.stdout, "(remembered from an earlier connect)") ||
		!strings.Contains(second.stdout, "protocol version: "+mcptest.Version2025Nov) {
		t.Errorf("info said:\n%s\nthen:\n%s", first.stdout, second.stdout)
	}
}
