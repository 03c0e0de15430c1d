package chat_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/chat"

// The model loop sits on the domain: it reaches servers only through
// hostcore (connections, reads, the consent gate), never the stores, the
// screens, the lab runner or the model SDKs, which are the providers'.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"fyne.io",
		"database/sql$", // the tokenizer pulls in database/sql/driver through google/uuid: an interface, no SQL
		"github.com/mattn/go-sqlite3",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/internal/provider",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/cmd",
		"github.com/attache/attache/hostcore/labrun",
		"github.com/openai",
		"github.com/anthropics",
	)
}

// It speaks hostcore's types, never go-sdk's: its own code imports no
// go-sdk package (hostcore, which does, and the consent gate and the config,
// whose entries name URLs, are set apart), nor a network.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart: []string{"github.com/attache/attache/hostcore$", "github.com/attache/attache/hostcore/pack",
			"github.com/attache/attache/hostcore/toolcall", "github.com/attache/attache/hostcore/consent",
			"github.com/attache/attache/hostcore/config"}, // toolcall, consent and config have their own deps tests; jsonschema-go (toolcall) and config (a server entry's URL) import net/url
		Forbidden: []string{"github.com/modelcontextprotocol", "net", "os/exec"},
	})
}
