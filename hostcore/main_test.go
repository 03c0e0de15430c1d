package hostcore_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/threengram"
)

// binDir holds the server binaries built for this test run.
var binDir string

func TestMain(m *testing.M) {
	var err error
	if binDir, err = os.MkdirTemp("", "hostcore-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

var (
	buildMu sync.Mutex
	built   = map[string]string{}
)

// binary builds a main package of this module once per test run.
func binary(t testing.TB, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	p := filepath.Join(binDir, filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", p, "github.com/attache/attache/"+pkg).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, out)
	}
	built[pkg] = p
	return p
}

// threengramStdio is a config entry for the reference server over stdio,
// with two accounts on two tenants, on a fresh seeded database.
func threengramStdio(t testing.TB) hostcore.ServerConfig {
	db := filepath.Join(t.TempDir(), "tg.db")
	return hostcore.ServerConfig{
		Name:    "threengram",
		Command: binary(t, "cmd/threengram"),
		Args:    []string{"--db", db, "--seed", "--stdio"},
		Accounts: []hostcore.Account{
			{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
			{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
		},
	}
}

// threengramHTTP serves the reference server on loopback and returns a
// config entry with one account per tenant, each with its bearer token.
func threengramHTTP(t testing.TB) (hostcore.ServerConfig, *threengram.Store) {
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
	sc := hostcore.ServerConfig{Name: "threengram-http", URL: srv.URL + "/mcp"}
	for _, tenant := range []string{"acme", "globex"} {
		tok, err := s.IssueToken(ctx, tenant, []string{threengram.ScopeRead})
		if err != nil {
			t.Fatal(err)
		}
		sc.Accounts = append(sc.Accounts, hostcore.Account{Name: tenant, Headers: map[string]string{"Authorization": "Bearer " + tok}})
	}
	return sc, s
}

// newHost returns a host closed at the end of the test.
func newHost(t testing.TB, opts *hostcore.HostOptions) *hostcore.Host {
	h := hostcore.NewHost(nil, opts)
	t.Cleanup(func() { h.Close() })
	return h
}

func conn(t testing.TB, h *hostcore.Host, sc hostcore.ServerConfig, account string) *hostcore.Conn {
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

var _ = fmt.Sprint
