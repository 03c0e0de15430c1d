package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/attache/attache/internal/threengram"
)

// TestConcurrentRefresh is issue 19's concurrency acceptance, through real
// processes: eight attachectl reads at once, in separate processes sharing
// one sign-in whose access tokens live 2 s at a threengram that rotates
// refresh tokens (a spent one revokes the grant, as a replay would). Every
// read succeeds and the account stays signed in, twenty times over: the
// processes refresh one at a time under the store's lock, each reading the
// grant again first, so none spends a refresh token another has already
// spent.
func TestConcurrentRefresh(t *testing.T) {
	if testing.Short() {
		t.Skip("160 processes")
	}
	endpoint, _ := oauthThreengram(t, "2s")
	env := append(writeConfig(t, map[string]any{"name": "tg", "url": endpoint, "accounts": []any{map[string]any{"name": "me"}}}),
		"ATTACHE_TOKEN_STORE=file")
	run := func(args ...string) result {
		return ctl(t, env, append([]string{"--authorize-with", "http-get", "--timeout", "20s"}, args...)...)
	}
	if r := run("login", "tg", "--authorize-param", "tenant=acme"); r.code != 0 {
		t.Fatalf("login: %+v", r)
	}
	ids := strings.Fields(run("complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	if len(ids) == 0 {
		t.Fatal("no ids after signing in")
	}
	uri := threengram.MemoryURI(ids[0])
	for round := range 20 {
		var wg sync.WaitGroup
		results := make([]result, 8)
		for i := range results {
			wg.Go(func() {
				args := []string{"read", "tg", uri}
				if i%2 == 0 {
					args = append(args, "--refresh") // to the server, with a token, every time
				}
				results[i] = run(args...)
			})
		}
		wg.Wait()
		for i, r := range results {
			if r.code != 0 {
				t.Errorf("round %d, read %d: exit %d: %s", round, i, r.code, r.stderr)
			}
		}
		if r := run("accounts"); r.code != 0 || !strings.Contains(r.stdout, "tg ") {
			t.Fatalf("round %d: after the reads, accounts says %q (exit %d); want tg still signed in", round, r.stdout, r.code)
		}
		if t.Failed() {
			return
		}
	}
}
