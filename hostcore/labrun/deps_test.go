package labrun_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/labrun"

// The lab runner sits on the domain and the model loop: it replays turns
// through hostcore's connections and consent gate, and never touches the
// stores, the screens or the model SDKs.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"fyne.io",
		"database/sql$",
		"github.com/mattn/go-sqlite3",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/internal/provider",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/cmd",
		"github.com/openai",
		"github.com/anthropics",
	)
}

// Its own code imports hostcore, chat, lab, pack and consent, and no go-sdk
// package.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart: []string{"github.com/attache/attache/hostcore$", "github.com/attache/attache/hostcore/chat",
			"github.com/attache/attache/hostcore/lab", "github.com/attache/attache/hostcore/pack",
			"github.com/attache/attache/hostcore/toolcall", "github.com/attache/attache/hostcore/consent"}, // checked by its own test; jsonschema-go, which it uses, imports net/url
		Forbidden: []string{"github.com/modelcontextprotocol", "net", "os/exec"},
	})
}
