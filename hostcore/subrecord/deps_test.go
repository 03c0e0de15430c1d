package subrecord_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Package subrecord sits under the sessions: it records subscriptions it
// is told of, knowing a connection only as a Conn, and imports no session
// code (not hostcore, not go-sdk), no store and no screen. Of the module it
// imports config, fault and pack only (a body is a pack.Content).
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/subrecord",
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/hostcore/consent",
		"github.com/attache/attache/hostcore/chat",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/ui",
		"github.com/modelcontextprotocol",
		"os/exec",
		"database/sql$",
		"fyne.io",
	)
}
