package hostcore_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The domain talks to storage through its own interfaces and to people
// through whatever UI sits on it; it imports neither.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore",
		"fyne.io",
		"database/sql",
		"github.com/mattn/go-sqlite3",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/cmd",
		// The model providers' SDKs live in package provider, an adapter.
		"github.com/attache/attache/internal/provider",
		"github.com/openai",
		"github.com/anthropics",
	)
}
