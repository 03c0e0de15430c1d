package demo_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/internal/provider/demo"

// The demo model is a model as hostcore sees one, and nothing else: no
// vendor SDK, no screen, no store, no server of the project's.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"fyne.io",
		"github.com/openai",
		"github.com/anthropics",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/cmd",
	)
}

// Its own code reaches no network and starts no process: it reads the
// request, and answers. Like the other providers it depends on the model
// loop (chat, set apart) and the leaves beside it, never on hostcore, the
// context engine or go-sdk.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart: []string{"github.com/attache/attache/hostcore/chat"},
		Forbidden: []string{"net$", "net/http", "os/exec", "github.com/attache/attache/hostcore$",
			"github.com/attache/attache/hostcore/pack", "github.com/modelcontextprotocol"},
	})
}
