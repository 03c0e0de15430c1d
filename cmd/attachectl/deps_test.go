package main

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The CLI runs where there is no display: it must not pull in Fyne.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/cmd/attachectl", "fyne.io", "github.com/attache/attache/ui")
}
