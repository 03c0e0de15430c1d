package pack_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

const self = "github.com/attache/attache/hostcore/pack"

// The tokenizer: package cl100k, with its own deps test (it imports
// regexp2 for the split, and nothing of the host).
var tokenizer = []string{self + "/cl100k"}

// Package pack is pure: it ranks, packs, counts and renders what it is
// given, and never reads, talks, starts a process or stores. Nothing it
// depends on, the tokenizer included, is a session, a store or a screen.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		// not hostcore, the stores, the screens nor the commands: of the
		// module, only its own tokenizer, below it
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/hostcore/chat",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal",
		"github.com/attache/attache/cmd",
		"github.com/modelcontextprotocol",
		"golang.org/x/oauth2",
		"os/exec",
		"net",               // the tokenizer is compiled in: it downloads nothing
		"database/sql",      // the tokenizer links no uuid, so not even database/sql/driver
		"github.com/pkoukk", // tiktoken-go is only its tests' reference
		"github.com/mattn/go-sqlite3",
		"fyne.io",
		"github.com/openai",
		"github.com/anthropics",
	)
}

// Its own code imports the standard library and the tokenizer only. The
// rule is on pack's own code, with the tokenizer set apart, because the
// tokenizer's split is regexp2's, outside the standard library.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, self, layering.OwnRule{
		Apart:        tokenizer,
		StandardOnly: true,
		Forbidden:    []string{"net", "os/exec", "database/sql"},
	})
}
