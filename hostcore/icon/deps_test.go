package icon_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The icon fetcher stands apart from the sessions: the web (https: only,
// no credentials) and data: URIs, the vocabulary of failure, and no
// session code, store or screen.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/icon",
		"github.com/attache/attache/hostcore$",
		"github.com/modelcontextprotocol",
		"os/exec",
		"database/sql",
		"fyne.io",
	)
}
