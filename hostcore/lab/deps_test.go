package lab_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The lab's metrics are pure: no session code, no storage, no UI.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/lab",
		"github.com/attache/attache/hostcore$",
		"github.com/modelcontextprotocol",
		"net/http",
		"os/exec",
		"database/sql",
		"fyne.io",
		"gonum.org",
	)
}
