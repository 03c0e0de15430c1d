package cache_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The cache stores bytes; the rules about what to store live in hostcore,
// which must never be imported back.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/cache",
		"fyne.io",
		"github.com/attache/attache/hostcore",
		"github.com/attache/attache/ui",
		"github.com/attache/attache/internal/threengram",
		"github.com/modelcontextprotocol/go-sdk",
		"github.com/attache/attache/cmd",
	)
}
