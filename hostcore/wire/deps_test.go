package wire_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Package wire sits under the sessions: it frames, bounds, records and
// decodes bytes, and imports no session code (not go-sdk, not hostcore)
// and no store or screen. Its own code imports the standard library and
// the fast JSON decoder only.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/wire",
		"github.com/attache/attache/",
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"os/exec",
		"database/sql",
		"fyne.io",
	)
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/wire", layering.OwnRule{
		Apart:        []string{"github.com/segmentio/encoding"},
		StandardOnly: true,
		Forbidden:    []string{"net", "os/exec"},
	})
}
