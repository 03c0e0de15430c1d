package hosttest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/threengram"
)

// inProcessCommand is the command of an in-process server's config entry;
// its one argument is the key the server is registered under.
const inProcessCommand = "in-process"

// inProcess holds the in-process servers of the test run, by key.
var inProcess struct {
	mu   sync.Mutex
	next atomic.Int64
	by   map[string]func(config.Account) hostcore.Dialer
}

// ThreengramMem is the reference server in-process, as ThreengramStdio is
// over stdio: two accounts on two tenants (acme, globex), on a fresh
// seeded store, reached through the host's transport factory (Host gives
// every host the factory) with no process started.
func ThreengramMem(t testing.TB) config.ServerConfig {
	t.Helper()
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	byTenant := map[string]*mcptest.ServerTransport{}
	sc := serveInProcess(t, "threengram", func(a config.Account) hostcore.Dialer {
		tenant := a.Env["THREENGRAM_TENANT"]
		mu.Lock()
		defer mu.Unlock()
		if byTenant[tenant] == nil {
			byTenant[tenant] = mcptest.NewServerTransport(threengram.NewServer(s, &threengram.ServerOptions{Tenant: tenant}))
		}
		return byTenant[tenant]
	})
	sc.Accounts = []config.Account{
		{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
		{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
	}
	return sc
}

// serveInProcess registers a server for the test's life and returns its
// config entry.
func serveInProcess(t testing.TB, name string, transport func(config.Account) hostcore.Dialer) config.ServerConfig {
	key := fmt.Sprintf("%s-%d", name, inProcess.next.Add(1))
	inProcess.mu.Lock()
	if inProcess.by == nil {
		inProcess.by = map[string]func(config.Account) hostcore.Dialer{}
	}
	inProcess.by[key] = transport
	inProcess.mu.Unlock()
	t.Cleanup(func() {
		inProcess.mu.Lock()
		delete(inProcess.by, key)
		inProcess.mu.Unlock()
	})
	return config.ServerConfig{Name: name, Command: inProcessCommand, Args: []string{key}}
}

// inProcessTransport is the transport factory Host gives: the transport of
// an in-process server's entry, else nil (the host starts the command).
func inProcessTransport(sc config.ServerConfig, a config.Account) hostcore.Dialer {
	if sc.Command != inProcessCommand || len(sc.Args) != 1 {
		return nil
	}
	inProcess.mu.Lock()
	f := inProcess.by[sc.Args[0]]
	inProcess.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(a)
}
