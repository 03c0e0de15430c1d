package proctime_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// proctime is a leaf both binaries link, the CLI included: the standard
// library and golang.org/x/sys only.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/proctime",
		"github.com/attache/attache/",
		"fyne.io",
		"github.com/modelcontextprotocol",
	)
}
