package ui

import (
	"testing"

	"github.com/attache/attache/hostcore"
)

// The capabilities line names what a server declared in MCP's words and
// order, each with the flags it set, from the host's own type.
func TestCapabilitiesLine(t *testing.T) {
	tests := []struct {
		name string
		caps hostcore.Capabilities
		want string
	}{
		{"nothing", hostcore.Capabilities{}, ""},
		{"tools only", hostcore.Capabilities{Tools: true}, "tools"},
		{"the reference server", hostcore.Capabilities{Resources: true, Subscribe: true, ResourceListChanged: true, Tools: true,
			ToolListChanged: true, Completions: true}, "completions · resources (listChanged, subscribe) · tools (listChanged)"},
		{"everything", hostcore.Capabilities{Completions: true, Experimental: []string{"x"}, Extensions: []string{"io.y/z"},
			Logging: true, Prompts: true, PromptListChanged: true, Resources: true}, "completions · experimental · extensions · logging · prompts (listChanged) · resources"},
		{"a flag without its capability", hostcore.Capabilities{Subscribe: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := capabilities(tt.caps); got != tt.want {
				t.Errorf("capabilities = %q; want %q", got, tt.want)
			}
		})
	}
}
