package pack_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/pack"

// The tokenizer: tiktoken-go, and the loader of its embedded tables.
var tokenizer = []string{"github.com/pkoukk/tiktoken-go", "github.com/pkoukk/tiktoken-go-loader"}

// Package pack is pure: it ranks, packs, counts and renders what it is
// given, and never reads, talks, starts a process or stores. Nothing it
// depends on, the tokenizer included, is a session, a store or a screen.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"github.com/attache/attache/", // not hostcore, the stores, the screens nor the commands
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"os/exec",
		"database/sql$", // the tokenizer pulls in database/sql/driver through google/uuid: an interface, no SQL
		"github.com/mattn/go-sqlite3",
		"fyne.io",
		"github.com/openai",
		"github.com/anthropics",
	)
}

// Its own code imports the standard library and the tokenizer only, and
// reaches no network. The rule is on pack's own code, with the tokenizer
// set apart, because the tokenizer's package itself imports net/http (to
// download a table when no loader is set; pack sets the offline loader of
// embedded tables, so it never does) and its google/uuid imports net (for
// a MAC address): forbidding "net" through the tokenizer would forbid the
// tokenizer.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart:        tokenizer,
		StandardOnly: true,
		Forbidden:    []string{"net", "os/exec", "database/sql"},
	})
}
