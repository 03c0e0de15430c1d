package state

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The state store is an adapter: it knows hostcore's types and SQLite,
// and never the UI, the cache (another adapter) or the reference server.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/state",
		"fyne.io",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/cmd",
	)
}
