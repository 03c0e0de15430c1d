package consent_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Package consent sits under the sessions: it decides on tool calls from a
// connection's entry, account and listing (its Conn), and imports no
// session code (not hostcore, not go-sdk), no store and no screen. Of the
// module it imports config, fault and toolcall only; the grant store
// (internal/state) is handed in by the host's caller.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/consent",
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/hostcore/chat",
		"github.com/attache/attache/hostcore/labrun",
		"github.com/attache/attache/hostcore/signin",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/internal/secretstore",
		"github.com/attache/attache/internal/provider",
		"github.com/attache/attache/internal/ctl",
		"github.com/attache/attache/internal/desktop",
		"github.com/attache/attache/ui",
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"os/exec",
		"database/sql$",
		"fyne.io",
	)
}
