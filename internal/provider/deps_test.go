package provider_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The providers are an adapter: they know the model loop's types and the
// vendors' SDKs, and never the UI, the stores or the reference server.
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

// They depend on the model loop, not on the sessions: their own code
// imports chat (set apart: it sits on hostcore) and the leaves beside it
// (models, fault, redact), never hostcore itself nor go-sdk.
func TestOwnDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/internal/provider", layering.OwnRule{
		Apart: []string{"github.com/attache/attache/hostcore/chat"},
		Forbidden: []string{"github.com/attache/attache/hostcore$", "github.com/modelcontextprotocol",
			"github.com/attache/attache/hostcore/pack"},
	})
}
