package desktop

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The app's wiring is the release binary's: it links neither the scripted
// model server nor the test servers (the scenes' command adds its own), and
// it reaches the protocol only through hostcore.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/desktop",
		"github.com/attache/attache/internal/modeltest",
		"github.com/attache/attache/internal/mcptest",
		"github.com/attache/attache/internal/testbin",
		"github.com/attache/attache/cmd",
	)
	layering.CheckOwn(t, "github.com/attache/attache/internal/desktop", layering.OwnRule{
		Apart:     []string{"github.com/attache/attache/"},
		Forbidden: []string{"github.com/modelcontextprotocol"},
	})
}
