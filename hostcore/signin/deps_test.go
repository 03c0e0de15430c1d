package signin_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Package signin sits beside the sessions: it signs accounts in over
// go-sdk's auth and oauthex and golang.org/x/oauth2, and imports no session
// code (not hostcore, not go-sdk's mcp), no store and no screen. Of the
// module it imports config, fault and redact only; the grant store's
// keyring and file (internal/secretstore) are wired in by cmd.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/signin",
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/secretstore",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/ui",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"os/exec",
		"database/sql",
		"fyne.io",
	)
}
