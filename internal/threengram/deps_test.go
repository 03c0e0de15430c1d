package threengram_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The reference server is a server: it imports no host package, so it tests
// the host the way a stranger's server would.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/threengram",
		"fyne.io",
		"github.com/attache/attache/hostcore",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/cmd",
	)
}
