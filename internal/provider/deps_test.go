package provider_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The providers are an adapter: they know hostcore's types and the vendors'
// SDKs, and never the UI, the stores or the reference server.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/provider",
		"fyne.io",
		"database/sql$",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/cmd",
	)
}
