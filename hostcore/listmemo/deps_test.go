package listmemo_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// A leaf: the standard library only, and no I/O.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/listmemo", layering.OwnRule{
		Forbidden: []string{"github.com/", "fyne.io", "net", "os", "database/sql"},
	})
}
