package config_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/config"

// The config is a file and its entries: it knows nothing of sessions,
// transports, stores or screens. hostcore connects to what it lists;
// the config never imports hostcore.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/hostcore/wire",
		"github.com/attache/attache/hostcore/chat",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/cmd",
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"os/exec",
		"database/sql",
		"fyne.io",
	)
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart:     []string{"github.com/attache/attache/"},
		Forbidden: []string{"net/http", "os/exec"},
	})
}
