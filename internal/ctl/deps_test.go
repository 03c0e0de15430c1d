package ctl

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The CLI runs where there is no display: it must not pull in Fyne. And
// attachectl, which every command starts, links no model SDK and no chart
// library: their inits and page faults would be paid by every read (see
// Full). attachectl-full links them.
func TestDependencies(t *testing.T) {
	sdks := []string{
		"github.com/openai/openai-go/v3", "github.com/anthropics/anthropic-sdk-go/v2", "gonum.org/v1/plot",
		"github.com/attache/attache/internal/provider", "github.com/attache/attache/internal/labreport",
	}
	for _, pkg := range []string{"github.com/attache/attache/internal/ctl", "github.com/attache/attache/cmd/attachectl"} {
		layering.Check(t, pkg, append([]string{"fyne.io", "github.com/attache/attache/ui"}, sdks...)...)
	}
	layering.Check(t, "github.com/attache/attache/cmd/attachectl-full", "fyne.io", "github.com/attache/attache/ui")
}
