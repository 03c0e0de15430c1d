package fault_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The vocabulary of failure is a leaf: the standard library only, so that
// the config, the model loop and the providers can share it without the
// sessions.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/fault", layering.OwnRule{StandardOnly: true})
}
