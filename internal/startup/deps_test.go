package startup_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// startup measures both the app and its floor, the empty window: it must
// link Fyne and the process clock only, or the floor would pay for the
// app's packages.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/startup",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/hostcore",
		"github.com/attache/attache/internal/desktop",
		"github.com/modelcontextprotocol",
	)
}
