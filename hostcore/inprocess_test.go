package hostcore_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/threengram"
)

// Most tests reach their servers in-process: the host's transport factory
// (HostOptions.Transport) connects a real go-sdk server (the reference
// server, a test mode) through in-memory transports, with no process
// started. A config entry of such a server has the command "in-process"
// and, as its argument, the key it is registered under here; newHost and
// configuredHost give every host the factory. The tests that start
// processes are the deliberate few: stdio and its signals, loopback HTTP,
// and the npm peers (interop).

// inProcessCommand is the command of every in-process server's entry.
const inProcessCommand = "in-process"

// inProcess holds the in-process servers by key, for the test run.
var inProcess struct {
	mu   sync.Mutex
	next atomic.Int64
	by   map[string]func(config.Account) hostcore.Dialer
}

// serveInProcess registers a server for the test's life and returns its
// config entry's command line: transport gives the transport of one connect
// as an account.
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

// inProcessTransport is the factory every test host gets.
func inProcessTransport(sc config.ServerConfig, a config.Account) hostcore.Dialer {
	if sc.Command != inProcessCommand || len(sc.Args) != 1 {
		return nil
	}
	inProcess.mu.Lock()
	f := inProcess.by[sc.Args[0]]
	inProcess.mu.Unlock()
	if f == nil {
		return nil // unknown: the host tries to start "in-process", which fails
	}
	return f(a)
}

// withInProcess returns opts with the in-process factory, unless the test
// set one of its own.
func withInProcess(opts *hostcore.HostOptions) *hostcore.HostOptions {
	var o hostcore.HostOptions
	if opts != nil {
		o = *opts
	}
	if o.Transport == nil {
		o.Transport = inProcessTransport
	}
	return &o
}

// threengramMem is the reference server in-process, as threengramStdio is
// over stdio: two accounts on two tenants, a fresh seeded store. Each
// account's tenant is its own server, as a stdio process per account is.
func threengramMem(t testing.TB) config.ServerConfig {
	return threengramMemOf(t, seededStore(t))
}

// threengramMemOf serves store in-process.
func threengramMemOf(t testing.TB, store *threengram.Store) config.ServerConfig {
	var mu sync.Mutex
	byTenant := map[string]*mcptest.ServerTransport{}
	sc := serveInProcess(t, "threengram", func(a config.Account) hostcore.Dialer {
		tenant := a.Env["THREENGRAM_TENANT"]
		mu.Lock()
		defer mu.Unlock()
		if byTenant[tenant] == nil {
			byTenant[tenant] = mcptest.NewServerTransport(threengram.NewServer(store, &threengram.ServerOptions{Tenant: tenant}))
		}
		return byTenant[tenant]
	})
	sc.Accounts = []config.Account{
		{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
		{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
	}
	return sc
}

// mcptestMem is a test mode in-process, as mcptestStdio is over stdio.
func mcptestMem(t testing.TB, mode string, opts *mcptest.Options) config.ServerConfig {
	sc, _ := mcptestMemT(t, mode, opts)
	return sc
}

// mcptestMemT is mcptestMem, with the transport (to hang its servers up).
func mcptestMemT(t testing.TB, mode string, opts *mcptest.Options) (config.ServerConfig, *mcptest.ModeTransport) {
	t.Helper()
	mt, err := mcptest.NewModeTransport(mode, opts)
	if err != nil {
		t.Fatal(err)
	}
	return serveInProcess(t, mode, func(config.Account) hostcore.Dialer { return mt }), mt
}

// serverMem serves one go-sdk server in-process, and returns the transport
// too (to drop its sessions).
func serverMem(t testing.TB, name string, srv *mcp.Server) (config.ServerConfig, *mcptest.ServerTransport) {
	st := mcptest.NewServerTransport(srv)
	return serveInProcess(t, name, func(config.Account) hostcore.Dialer { return st }), st
}
