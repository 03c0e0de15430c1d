package redact_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Redaction is a leaf of the standard library.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/redact", layering.OwnRule{StandardOnly: true, Forbidden: []string{"net/http"}})
}
