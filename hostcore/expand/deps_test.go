package expand_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Expansion is pure: the template library and the vocabulary of failure,
// no session, network, store or screen.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/expand", layering.OwnRule{
		Apart:        []string{"github.com/yosida95/uritemplate", "github.com/attache/attache/hostcore/fault"},
		StandardOnly: true,
		Forbidden:    []string{"net/http", "os/exec"},
	})
}
