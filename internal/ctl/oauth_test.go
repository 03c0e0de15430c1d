package ctl

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// oauthThreengram runs threengram over HTTP with OAuth as a real process:
// a seeded store, tokens living ttl, and the test-only approval
// parameter tenant=NAME turned on. It returns the endpoint and database.
func oauthThreengram(t *testing.T, ttl string) (endpoint, db string) {
	t.Helper()
	tg, err := testbin.Path("cmd/threengram")
	if err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(t.TempDir(), "tg.db")
	cmd := exec.Command(tg, "--db", db, "--seed", "--http", "127.0.0.1:0", "--oauth", "--oauth-auto-approve", "--access-token-ttl", ttl)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	serving := regexp.MustCompile(`serving (http://\S+/mcp)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case endpoint = <-found:
	case <-time.After(15 * time.Second):
		t.Fatal("threengram --oauth did not say where it serves")
	}
	return endpoint, db
}

// TestOAuthEndToEnd is the OAuth issue's acceptance through real
// processes: attachectl signs in to threengram --oauth with
// --authorize-with http-get, reads (a miss, then a hit), refreshes its
// short-lived token and stays in the same partition (still a hit), loses
// everything when acme is erased (exit 4, partition empty), and, signed in
// as globex, never sees acme's entries. No token ever reaches the config,
// the data dir or the output; the fallback token file is 0600.
func TestOAuthEndToEnd(t *testing.T) {
	endpoint, db := oauthThreengram(t, "2s")
	env := append(writeConfig(t, map[string]any{"name": "tg", "url": endpoint, "accounts": []any{
		map[string]any{"name": "me"}, map[string]any{"name": "other"}}}),
		"ATTACHE_TOKEN_STORE=file")
	cfgPath := strings.TrimPrefix(env[0], "ATTACHE_CONFIG=")
	dataDir := strings.TrimPrefix(env[1], "ATTACHE_DATA_DIR=")
	var printed strings.Builder
	run := func(args ...string) result {
		t.Helper()
		r := ctl(t, env, append([]string{"--authorize-with", "http-get"}, args...)...)
		printed.WriteString(r.stdout + r.stderr)
		return r
	}
	if r := run("login", "tg", "--account", "me", "--authorize-param", "tenant=acme"); r.code != 0 || !strings.Contains(r.stdout, "signed in to tg as me") {
		t.Fatalf("login as acme: %+v", r)
	}
	ids := strings.Fields(run("complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	if len(ids) == 0 {
		t.Fatal("no ids after signing in")
	}
	uri := threengram.MemoryURI(ids[0])
	status := func() (string, string) {
		t.Helper()
		r := run("read", "tg", uri, "--json")
		var out readOutput
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("read: %+v", r)
		}
		return out.Host.Cache.Status, *out.Result.Contents[0].Text
	}
	expiry := func() time.Time {
		var rows []struct {
			Account string
			Expires time.Time
		}
		json.Unmarshal([]byte(run("accounts", "--json").stdout), &rows)
		for _, r := range rows {
			if r.Account == "me" {
				return r.Expires
			}
		}
		t.Fatalf("accounts: no sign-in of me in %v", rows)
		return time.Time{}
	}
	if st, _ := status(); st != "miss" {
		t.Fatalf("first read: %s; want a miss", st)
	}
	st, body := status()
	if st != "hit" {
		t.Fatalf("second read: %s; want a hit", st)
	}
	before := expiry()
	time.Sleep(2500 * time.Millisecond) // the server's tokens live 2 s: let this one lapse
	if st, _ := status(); st != "hit" {
		t.Errorf("after the token expired: %s; want a hit in the same partition, after a refresh", st)
	}
	if after := expiry(); !after.After(before) {
		t.Errorf("the token was not refreshed: expiry %v, then %v", before, after)
	}

	// Another account of the same server, signed in as globex: the same
	// URL and headers, another grant, so another partition.
	if r := run("login", "tg", "--account", "other", "--authorize-param", "tenant=globex"); r.code != 0 {
		t.Fatalf("login as globex: %+v", r)
	}
	if r := run("read", "tg", "--account", "other", uri); r.code != exitNotFound || strings.Contains(r.stdout, body) {
		t.Errorf("globex reading acme's cached memory: exit %d; want 3 (not found), never acme's body", r.code)
	}

	tg, _ := testbin.Path("cmd/threengram")
	if out, err := exec.Command(tg, "erase", "--db", db, "--tenant", "acme").CombinedOutput(); err != nil {
		t.Fatalf("erase: %v %s", err, out)
	}
	if r := run("read", "tg", "--account", "me", uri); r.code != exitUnauthorized || strings.Contains(r.stdout, body) {
		t.Errorf("read after erasure: exit %d, %q; want 4 and no body", r.code, r.stderr)
	}
	var stats struct {
		Private   int
		ByAccount map[string]int
	}
	json.Unmarshal([]byte(run("cache", "stats", "--json").stdout), &stats)
	if stats.ByAccount["me"] != 0 {
		t.Errorf("%d private entries of the erased tenant survive the revoked grant", stats.ByAccount["me"])
	}
	if r := run("read", "tg", "--account", "me", uri); r.code != exitUnauthorized || strings.Contains(r.stdout, body) {
		t.Errorf("a second read after erasure: exit %d; want 4 again (sign in again)", r.code)
	}

	// The tokens: in the 0600 fallback file, nowhere else.
	tokenFile := filepath.Join(filepath.Dir(cfgPath), "oauth-tokens.json")
	info, err := os.Stat(tokenFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v, mode %v; want 0600", tokenFile, err, info.Mode().Perm())
	}
	raw, _ := os.ReadFile(tokenFile)
	var grants map[string]struct {
		Token struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
		} `json:"token"`
	}
	if err := json.Unmarshal(raw, &grants); err != nil || len(grants) != 1 { // other's; me's went with the erasure
		t.Fatalf("token file: %v, %d grants", err, len(grants))
	}
	var secrets []string
	for _, g := range grants {
		secrets = append(secrets, g.Token.AccessToken, g.Token.RefreshToken)
	}
	places := map[string]string{"output": printed.String()}
	cfg, _ := os.ReadFile(cfgPath)
	places["config"] = string(cfg)
	filepath.Walk(dataDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			places[p] = string(b)
		}
		return nil
	})
	for _, s := range secrets {
		if s == "" {
			t.Fatal("a grant without tokens")
		}
		for where, text := range places {
			if strings.Contains(text, s) {
				t.Errorf("a token appears in %s", where)
			}
		}
	}
}
