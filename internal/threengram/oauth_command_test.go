package threengram_test

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// startCommand runs `threengram ... --http 127.0.0.1:0 --oauth` and returns
// the issuer it prints on stderr, which is how a test learns the port.
func startCommand(t *testing.T, db string, args ...string) string {
	t.Helper()
	cmd := exec.Command(threengramBinary(t), append([]string{"--db", db, "--seed", "--http", "127.0.0.1:0", "--oauth"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	issuer := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "threengram: OAuth issuer "); ok {
				issuer <- u
			}
		}
		close(issuer)
	}()
	select {
	case u, ok := <-issuer:
		if !ok {
			t.Fatal("the server exited without naming its issuer")
		}
		return u
	case <-time.After(time.Minute):
		t.Fatal("no issuer line within a minute")
		return ""
	}
}

func TestOAuthCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	issuer := startCommand(t, db, "--oauth-auto-approve", "--access-token-ttl", "1m")
	o := &oauthServer{Issuer: issuer, MCP: issuer + "/mcp"}
	cb := newCallback(t)
	client := o.publicClient(t)
	cfg := o.config(client.ClientID, "", cb.URL, oauth2.AuthStyleInParams, "memory:read")
	code, verifier := o.signIn(t, cfg, cb, "acme")
	tok, err := o.exchange(cfg, code, verifier)
	if err != nil || tok.ExpiresIn != 60 {
		t.Fatalf("exchange = %+v, %v; want a 60 s token", tok, err)
	}
	ownIDs(t, httpSession(t, o.MCP, tok.AccessToken))

	out, err := exec.Command(threengramBinary(t), "erase", "--db", db, "--tenant", "acme").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "and 1 OAuth grant of acme") {
		t.Fatalf("erase: %v %s", err, out)
	}
	if status := o.gate(t, tok.AccessToken); status != 401 {
		t.Errorf("access token after erase: %d; want 401", status)
	}
	if _, err := refresh(cfg, tok.RefreshToken); !isCode(err, "invalid_grant") {
		t.Errorf("refresh after erase = %v; want invalid_grant", err)
	}
}

func TestOAuthCommandUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tg.db")
	for _, args := range [][]string{
		{"--db", db, "--stdio", "--tenant", "acme", "--oauth"},
		{"--db", db, "--http", "127.0.0.1:0", "--oauth", "--issuer", "http://127.0.0.1:1/prefix"},
	} {
		cmd := exec.Command(threengramBinary(t), args...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("%q: %v %s; want exit 2", args, err, out)
		}
	}
}
