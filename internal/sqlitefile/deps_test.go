package sqlitefile

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The plumbing serves the stores and knows none of them: a store's choices
// come in as parameters, so importing one back would be a cycle waiting to
// happen.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/sqlitefile",
		"fyne.io",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/hostcore",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/cmd",
	)
}
