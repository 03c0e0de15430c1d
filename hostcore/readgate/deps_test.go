package readgate_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// A leaf: the standard library only.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/readgate", layering.OwnRule{
		Forbidden: []string{"github.com/", "fyne.io", "net", "os/exec", "database/sql"},
	})
}
