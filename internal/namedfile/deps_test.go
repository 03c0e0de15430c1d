package namedfile

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Reading a named file is a leaf: the stores, the domain and the commands
// all use it, so it may import none of them.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/internal/namedfile", "github.com/attache/attache/")
}
