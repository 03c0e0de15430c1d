package ctl

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/attache/attache/internal/secretstore"
	"github.com/attache/attache/internal/threengram"
)

// TestConcurrentRefresh is issue 19's concurrency acceptance, through real
// processes: eight attachectl reads at once, in separate processes sharing
// one sign-in whose access tokens live 2 s at a threengram that rotates
// refresh tokens (a spent one revokes the grant, as a replay would). Every
// read succeeds and the account stays signed in, twenty times over: the
// processes refresh one at a time under the store's lock, each reading the
// grant again first, so none spends a refresh token another has already
// spent. Each round starts once the stored access token is due for
// renewal, so that all eight find it stale at once, and must leave the
// grant rotated.
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
	store := secretstore.Open(filepath.Dir(strings.TrimPrefix(env[0], "ATTACHE_CONFIG=")), &secretstore.Options{File: true})
	for round := range 20 {
		before := dueForRenewal(t, store)
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
		if after := storedToken(t, store); after.RefreshToken == before.RefreshToken {
			t.Errorf("round %d: the refresh token was not rotated; the round renewed nothing", round)
		}
		if t.Failed() {
			return
		}
	}
}

// storedToken is the one grant's token in store.
func storedToken(t *testing.T, store *secretstore.Store) *oauth2.Token {
	t.Helper()
	gs, err := store.List(context.Background())
	if err != nil || len(gs) != 1 || gs[0].Token == nil {
		t.Fatalf("stored grants: %+v, %v; want one with a token", gs, err)
	}
	return gs[0].Token
}

// dueForRenewal polls, for at most 10 s, until the stored access token is
// within its renewal margin (a quarter of its 2 s life) of its expiry, so
// that every process reading it now renews it, and returns it.
func dueForRenewal(t *testing.T, store *secretstore.Store) *oauth2.Token {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		tok := storedToken(t, store)
		if time.Now().Add(400 * time.Millisecond).After(tok.Expiry) {
			return tok
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stored token, expiring at %v, was not due for renewal within 10 s", tok.Expiry)
		}
		<-tick.C
	}
}
