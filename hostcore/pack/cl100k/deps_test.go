package cl100k_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// A leaf under pack: the standard library and the regexp engine of the
// split, nothing of the host, and no tokenizer's loader (the table is its
// own, checked against the loader's by the tests only).
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/pack/cl100k",
		"github.com/attache/attache/",
		"github.com/pkoukk/",
		"net",
		"database/sql",
		"fyne.io",
	)
}
