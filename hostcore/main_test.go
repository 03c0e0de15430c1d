package hostcore_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// binary builds a command of this module once per test run.
func binary(t testing.TB, pkg string) string { return testbin.Build(t, pkg) }

// threengramStdio is a config entry for the reference server over stdio,
// with two accounts on two tenants, on a fresh seeded database.
func threengramStdio(t testing.TB) config.ServerConfig {
	db := filepath.Join(t.TempDir(), "tg.db")
	return config.ServerConfig{
		Name:    "threengram",
		Command: binary(t, "cmd/threengram"),
		Args:    []string{"--db", db, "--seed", "--stdio"},
		Accounts: []config.Account{
			{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
			{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
		},
	}
}

// seededStore opens a threengram store with the sample corpus in a fresh
// directory, closed at the end of the test.
func seededStore(t testing.TB) *threengram.Store {
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

// threengramHTTP serves the reference server on loopback and returns a
// config entry with one account per tenant, each with its bearer token.
func threengramHTTP(t testing.TB) (config.ServerConfig, *threengram.Store) {
	s := seededStore(t)
	ctx := context.Background()
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

// newHost returns a host closed at the end of the test.
func newHost(t testing.TB, opts *hostcore.HostOptions) *hostcore.Host {
	h := hostcore.NewHost(nil, withInProcess(opts))
	t.Cleanup(func() { h.Close() })
	return h
}

func conn(t testing.TB, h *hostcore.Host, sc config.ServerConfig, account string) *hostcore.Conn {
	t.Helper()
	c, err := h.ConnFor(sc, account)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// someIDs returns memory ids of a tenant through the search tool.
func someIDs(t testing.TB, c *hostcore.Conn) []string {
	t.Helper()
	cs, err := c.Session(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids, err := threengramIDs(cs)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}
