package toolform_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The form of a tool's arguments is a pure part: it speaks no protocol and
// draws nothing.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/toolform",
		"fyne.io",
		"github.com/modelcontextprotocol",
		"github.com/attache/attache/hostcore$",
		"net",
		"os/exec",
	)
}
