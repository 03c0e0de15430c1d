package ctl

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// threengramProcess runs the reference server over HTTP as a real process
// on a seeded database, and returns its endpoint, the database and a token
// per tenant (issued by the server's own token command).
func threengramProcess(t *testing.T) (endpoint, db string, tokens map[string]string) {
	t.Helper()
	tg, err := testbin.Path("cmd/threengram")
	if err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(t.TempDir(), "tg.db")
	tokens = map[string]string{}
	for _, tn := range []string{"acme", "globex"} {
		out, err := exec.Command(tg, "token", "--db", db, "--seed", "--tenant", tn).Output()
		if err != nil {
			t.Fatalf("threengram token: %v", err)
		}
		tokens[tn] = strings.TrimSpace(string(out))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(tg, "--db", db, "--http", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	endpoint = "http://" + addr + "/mcp"
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(endpoint)
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("threengram did not start listening on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return endpoint, db, tokens
}

// seededStore opens a threengram store with the sample corpus in a fresh
// directory, closed at the end of the test.
func seededStore(t *testing.T) *threengram.Store {
	t.Helper()
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	return s
}

// writeConfig writes a config with one server (and the imports given) and
// returns the env that points attachectl at it and at a private data dir.
func writeConfig(t *testing.T, server map[string]any, imports ...map[string]string) []string {
	dir := t.TempDir()
	b, _ := json.Marshal(map[string]any{"servers": []any{server}, "imports": imports})
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"ATTACHE_CONFIG=" + p, "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data")}
}

// TestErasureEndToEnd is seed 000's erasure, through real processes: acme
// reads a memory over HTTP, so it is cached; `threengram erase` revokes
// acme's tokens; then a plain read and a refreshed read both get 401
// (exit 4), and no command prints acme's body from the cache again.
func TestErasureEndToEnd(t *testing.T) {
	endpoint, db, tokens := threengramProcess(t)
	env := writeConfig(t, map[string]any{"name": "tg", "url": endpoint, "accounts": []any{
		map[string]any{"name": "acme", "headers": map[string]string{"Authorization": "Bearer " + tokens["acme"]}}}})
	ids := strings.Fields(ctl(t, env, "complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	if len(ids) == 0 {
		t.Fatal("no ids")
	}
	uri := threengram.MemoryURI(ids[0])
	first := ctl(t, env, "read", "tg", uri)
	second := ctl(t, env, "read", "tg", uri, "--json")
	if first.code != 0 || second.code != 0 || !strings.Contains(second.stdout, `"status": "hit"`) {
		t.Fatalf("before erasure: %+v / %+v; want a miss, then a hit", first, second)
	}
	body := strings.TrimSpace(first.stdout)
	conv := strings.TrimSpace(ctl(t, env, "context", "new", "erasure").stdout)
	if r := ctl(t, env, "attach", conv, "tg", uri); r.code != 0 {
		t.Fatalf("attach: %+v", r)
	}

	tg, _ := testbin.Path("cmd/threengram")
	if out, err := exec.Command(tg, "erase", "--db", db, "--tenant", "acme").CombinedOutput(); err != nil {
		t.Fatalf("erase: %v %s", err, out)
	}
	for _, args := range [][]string{{"read", "tg", uri}, {"read", "tg", uri, "--refresh"}} {
		if r := ctl(t, env, args...); r.code != exitUnauthorized {
			t.Errorf("%v after erasure: exit %d (%q); want 4", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"read", "tg", uri}, {"read", "tg", uri, "--json"}, {"read", "tg", uri, "-v"},
		{"rank", conv, "--json"}, {"export", conv, "--format", "md"}, {"export", conv, "--format", "json"},
		{"context", "show", conv, "--json"}, {"cache", "stats", "--json"},
	} {
		r := ctl(t, env, args...)
		if strings.Contains(r.stdout+r.stderr, body) || strings.Contains(r.stdout+r.stderr, jsonQuoted(body)) {
			t.Errorf("%v printed acme's body after erasure", args)
		}
	}
	var st struct{ Private int }
	json.Unmarshal([]byte(ctl(t, env, "cache", "stats", "--json").stdout), &st)
	if st.Private != 0 {
		t.Errorf("%d private entries survive the 401", st.Private)
	}
}

func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// TestSecretsNeverShown runs every kind of command, with -v, --raw and
// --json, against servers whose credentials are a known token in a header,
// in URL userinfo, in an ad-hoc --header and in a ${input:} typed at the
// prompt, and searches what they print, and every file of the data dir,
// for the token: 0 matches.
func TestSecretsNeverShown(t *testing.T) {
	s := seededStore(t)
	ctx := context.Background()
	secret, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
	handler := threengram.NewHTTPHandler(s, nil)
	// threengram takes bearer tokens; this front lets URL userinfo carry
	// one too (as HTTP Basic), so that userinfo is a working credential.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pass, ok := r.BasicAuth(); ok {
			r.Header.Set("Authorization", "Bearer "+pass)
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	endpoint := srv.URL + "/mcp"
	userinfo := strings.Replace(endpoint, "http://", "http://tg:"+secret+"@", 1)
	vscode := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(vscode, []byte(`{
		// a VS Code file: the token is typed at a prompt
		"inputs": [{"id": "token", "type": "promptString", "description": "threengram token", "password": true}],
		"servers": {"vs": {"type": "http", "url": "`+endpoint+`", "headers": {"Authorization": "Bearer ${input:token}"}}},
	}`), 0o600)
	env := writeConfig(t, map[string]any{"name": "tg", "url": endpoint, "accounts": []any{
		map[string]any{"name": "acme", "headers": map[string]string{"Authorization": "Bearer " + secret}}}},
		map[string]string{"kind": "vscode", "path": vscode})
	var printed strings.Builder
	run := func(stdin string, args ...string) result {
		t.Helper()
		cmd := exec.Command(binPath, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin = strings.NewReader(stdin)
		out, _ := cmd.CombinedOutput()
		printed.Write(out)
		code := cmd.ProcessState.ExitCode()
		return result{stdout: string(out), code: code}
	}
	ids := strings.Fields(run("", "complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	uri := threengram.MemoryURI(ids[0])
	conv := strings.TrimSpace(run("", "context", "new", "secrets").stdout)
	conv2 := strings.TrimSpace(run("", "context", "new", "by userinfo").stdout)
	adHoc := []string{"--url", endpoint, "--header", "Authorization=Bearer " + secret}
	for _, args := range [][]string{
		{"servers"}, {"servers", "--json"}, {"info", "tg", "-v"}, {"info", "tg", "--json"},
		{"templates", "tg", "-v"}, {"read", "tg", uri, "-v"}, {"read", "tg", uri, "--raw"}, {"read", "tg", uri, "--json"},
		append([]string{"read", uri, "--raw", "-v"}, adHoc...),
		append([]string{"read", "threengram://memory/nope", "-v"}, adHoc...),
		{"read", "--url", userinfo, uri, "-v", "--json"},
		{"read", "--url", userinfo, "threengram://memory/nope", "-v"},
		{"info", "--url", userinfo, "-v"},
		{"attach", conv, "tg", uri},
		append([]string{"attach", conv, uri}, adHoc...),
		{"attach", conv2, "--url", userinfo, uri},
		{"context", "show", conv, "--json"}, {"context", "show", conv}, {"context", "list", "--json"},
		{"context", "show", conv2, "--json"}, {"context", "show", conv2, "--live"}, {"rank", conv2},
		{"rank", conv, "--json"}, {"export", conv, "--format", "json"}, {"cache", "stats", "--json"},
	} {
		if r := run("", args...); r.code != 0 && !strings.Contains(strings.Join(args, " "), "nope") {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stdout)
		}
	}
	for _, args := range [][]string{
		{"read", "vs", uri, "-v", "--raw"}, {"read", "vs", uri, "--json"}, {"attach", conv, "vs", uri},
		{"read", "vs", "threengram://memory/nope", "-v"},
		{"rank", conv, "--json"}, {"export", conv, "--format", "json"}, {"cache", "stats", "--json"},
	} {
		if r := run(secret+"\n", args...); r.code != 0 && !strings.Contains(strings.Join(args, " "), "nope") {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stdout)
		}
	}
	if n := strings.Count(printed.String(), secret); n != 0 {
		t.Errorf("the token appears %d times in what the commands printed", n)
		sc := bufio.NewScanner(strings.NewReader(printed.String()))
		for sc.Scan() {
			if strings.Contains(sc.Text(), secret) {
				t.Log(sc.Text())
			}
		}
	}
	dataDir := strings.TrimPrefix(env[1], "ATTACHE_DATA_DIR=")
	filepath.Walk(dataDir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds the token", path)
		}
		return nil
	})
}
