package ctl

import (
	"strings"
	"testing"

	"github.com/attache/attache/internal/threengram"
)

// A read that needs a sign-in nobody gives waits no longer than its
// --timeout: it ends as a timeout (exit 6) that says it was waiting for
// the sign-in, not after the sign-in's own five minutes.
func TestSignInWaitKeepsTheBudget(t *testing.T) {
	endpoint, _ := oauthThreengram(t, "10m")
	env := append(writeConfig(t, map[string]any{"name": "tg", "url": endpoint}), "ATTACHE_TOKEN_STORE=file")
	r := ctl(t, env, "--authorize-with", "print", "--timeout", "3s", "read", "tg", threengram.MemoryURI("m00qgwdvbb"))
	if r.code != exitTransport || !strings.Contains(r.stderr, "waiting for the sign-in") || !strings.Contains(r.stderr, "asks you to sign in") {
		t.Errorf("a read whose sign-in nobody answers, --timeout 3s: exit %d, %q; want 6, the time ran out waiting for the sign-in", r.code, r.stderr)
	}
}

// login and accounts name whom the grant is for, as the server tells
// (threengram's token introspection): the tenant picked on its page.
func TestLoginNamesTheAccount(t *testing.T) {
	endpoint, _ := oauthThreengram(t, "10m")
	env := append(writeConfig(t, map[string]any{"name": "tg", "url": endpoint}), "ATTACHE_TOKEN_STORE=file")
	r := ctl(t, env, "--authorize-with", "http-get", "--authorize-param", "tenant=globex", "login", "tg")
	if r.code != 0 || !strings.Contains(r.stdout, "(the server's account globex)") {
		t.Fatalf("login as globex: %+v", r)
	}
	r = ctl(t, env, "accounts")
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || len(lines) != 2 ||
		!strings.Contains(lines[0], "SIGNED IN AS") || !strings.Contains(lines[1], "globex") {
		t.Errorf("accounts: %+v; want a row that says globex", r)
	}
	if r := ctl(t, env, "accounts", "--json"); !strings.Contains(r.stdout, `"subject": "globex"`) {
		t.Errorf("accounts --json: %s; want the subject", r.stdout)
	}
}
