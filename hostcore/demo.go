package hostcore

import (
	"os"
	"path/filepath"

	"github.com/attache/attache/hostcore/config"
)

// DemoCommand is the subcommand of Attaché's own binaries that serves the
// embedded threengram demo over stdio (the tenant comes from the
// THREENGRAM_TENANT environment variable, as an account's credential).
const DemoCommand = "demo-server"

// DemoServerName is the name of the built-in demo server.
const DemoServerName = "demo"

// DemoServer returns the built-in demo: the threengram reference server with
// its sample corpus, run over stdio by exe (an Attaché binary) with its
// database under dataDir, and two accounts on two tenants, so that a first
// run has something real to browse and two authorization contexts to tell
// apart.
func DemoServer(exe, dataDir string) config.ServerConfig {
	return config.ServerConfig{
		Name:    DemoServerName,
		Title:   "threengram demo",
		Command: exe,
		Args:    []string{DemoCommand, "--db", DemoDatabase(dataDir)},
		Accounts: []config.Account{
			{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
			{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
		},
		Source: "builtin",
	}
}

// DemoDatabase is the demo's threengram database under dataDir.
func DemoDatabase(dataDir string) string { return filepath.Join(dataDir, "demo-threengram.db") }

// DemoOAuthServerName is the name of the built-in demo reached over HTTP
// with OAuth.
const DemoOAuthServerName = "demo-oauth"

// DemoOAuthServer returns the built-in demo over loopback HTTP with OAuth:
// the threengram reference server that the app runs in its own process at
// endpoint (its /mcp URL), as its tenants' authorization server too. Its one
// account holds no credential: it signs in, and the tenant is whichever
// the person picks on the server's login page.
func DemoOAuthServer(endpoint string) config.ServerConfig {
	return config.ServerConfig{
		Name:      DemoOAuthServerName,
		Title:     "threengram",
		URL:       endpoint,
		Transport: config.TransportStreamable,
		Accounts:  []config.Account{{Name: "me"}},
		Source:    "builtin",
	}
}

// DefaultDataDir returns os.UserCacheDir()/attache, where the body cache and
// the demo's database live unless --data-dir or ATTACHE_DATA_DIR say
// otherwise.
func DefaultDataDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "attache"), nil
}
