package models_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The providers' entries are a leaf: the standard library, the
// vocabulary of failure and redaction, nothing of the sessions.
func TestDependencies(t *testing.T) {
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/models", layering.OwnRule{
		Apart:        []string{"github.com/attache/attache/hostcore/fault", "github.com/attache/attache/hostcore/redact"},
		StandardOnly: true,
	})
}
