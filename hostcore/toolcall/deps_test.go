package toolcall_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/toolcall"

// Package toolcall is what the host knows of tools and their results,
// with no session in sight: it imports no session code (not go-sdk, not
// hostcore), no store and no screen, and reaches no network. Its own code imports
// the standard library, pack (the content a result embeds), fault (the
// error words) and the JSON Schema validator only.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal",
		"github.com/attache/attache/ui",
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"database/sql$",
		"fyne.io",
	)
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart: []string{
			"github.com/attache/attache/hostcore/pack",
			"github.com/attache/attache/hostcore/fault",
			"github.com/google/jsonschema-go",
		},
		StandardOnly: true,
		Forbidden:    []string{"net", "os/exec"},
	})
}
