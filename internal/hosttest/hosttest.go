// Package hosttest gives the tests of the packages over hostcore (the model
// loop, the lab runner) the real parts they run against: the reference
// server in-process (through the host's transport factory), over stdio
// and over loopback HTTP, a host with a real SQLite cache, a
// real state database, and the memory ids of a tenant, found through the
// consent gate as a person's call would be. Only tests import it.
package hosttest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// ThreengramStdio is a config entry for the reference server over stdio,
// with two accounts on two tenants (acme, globex), on a fresh seeded
// database. The test binary's TestMain must call testbin.Main.
func ThreengramStdio(t testing.TB) config.ServerConfig {
	db := filepath.Join(t.TempDir(), "tg.db")
	return config.ServerConfig{
		Name:    "threengram",
		Command: testbin.Build(t, "cmd/threengram"),
		Args:    []string{"--db", db, "--seed", "--stdio"},
		Accounts: []config.Account{
			{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
			{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
		},
	}
}

// ThreengramHTTP serves the reference server on loopback, on a fresh
// seeded store, and returns a config entry with one account per tenant,
// each with its bearer token, and the store.
func ThreengramHTTP(t testing.TB) (config.ServerConfig, *threengram.Store) {
	t.Helper()
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	if _, err := s.Seed(ctx, assets.Corpus); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(threengram.NewHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	sc := config.ServerConfig{Name: "threengram-http", URL: srv.URL + "/mcp"}
	for _, tenant := range []string{"acme", "globex"} {
		tok, err := s.IssueToken(ctx, tenant, []string{threengram.ScopeRead})
		if err != nil {
			t.Fatal(err)
		}
		sc.Accounts = append(sc.Accounts, config.Account{Name: tenant, Headers: map[string]string{"Authorization": "Bearer " + tok}})
	}
	return sc, s
}

// Host returns a host whose config (in a temporary file) holds servers,
// closed at the end of the test. Unless opts has a transport factory, the
// host gets the one that reaches ThreengramMem's servers in-process.
func Host(t testing.TB, opts *hostcore.HostOptions, servers ...config.ServerConfig) *hostcore.Host {
	t.Helper()
	cfg, err := config.LoadConfig(filepath.Join(t.TempDir(), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range servers {
		if err := cfg.Upsert(sc); err != nil {
			t.Fatal(err)
		}
	}
	var o hostcore.HostOptions
	if opts != nil {
		o = *opts
	}
	if o.Transport == nil {
		o.Transport = inProcessTransport // ThreengramMem's servers
	}
	h := hostcore.NewHost(cfg, &o)
	t.Cleanup(func() { h.Close() })
	return h
}

// Conn returns h's connection to sc as account.
func Conn(t testing.TB, h *hostcore.Host, sc config.ServerConfig, account string) *hostcore.Conn {
	t.Helper()
	c, err := h.ConnFor(sc, account)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Cache opens a body cache in a temporary directory.
func Cache(t testing.TB) hostcore.BodyCache {
	t.Helper()
	s, err := cache.Open(filepath.Join(t.TempDir(), "cache.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return hostcache.New(s)
}

// State opens a state database in a temporary directory; it keeps
// conversations, turns and grants.
func State(t testing.TB) *state.Store {
	t.Helper()
	s, err := state.Open(filepath.Join(t.TempDir(), "state.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// MemoryIDs returns memory ids of c's tenant on the reference server,
// found with its search tool: a person's call, through the consent gate.
func MemoryIDs(t testing.TB, c *hostcore.Conn) []string {
	t.Helper()
	ctx := context.Background()
	scope, err := c.Host().Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	d := scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: "search"}, Arguments: json.RawMessage(`{"query":"","limit":20}`)})
	res, err := c.CallTool(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	var out threengram.SearchOutput
	if err := json.Unmarshal(res.Structured, &out); err != nil {
		t.Fatal(fmt.Errorf("reading the search result %s: %w", res.Structured, err))
	}
	var ids []string
	for _, r := range out.Results {
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		t.Fatal("the reference server found no memory")
	}
	return ids
}
