package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/attache/attache/internal/layering"
	"github.com/attache/attache/internal/testbin"
)

const self = "github.com/attache/attache/cmd/attache"

// The release binary links the product only: the scripted model server
// and the test servers are the screenshot scenes' (cmd/attache-scenes)
// and the tests'.
func TestDependencies(t *testing.T) {
	layering.Check(t, self,
		"github.com/attache/attache/internal/modeltest",
		"github.com/attache/attache/internal/mcptest",
		"github.com/attache/attache/internal/testbin",
	)
}

// scaffolding names what only the scenes link: their scenarios, and the
// scripted model server.
var scaffolding = regexp.MustCompile(`(?i)scenario|modeltest`)

// What the linker kept says the same: no symbol of the release binary is
// a scenario's or the scripted model server's.
func TestReleaseLinksNoScenes(t *testing.T) {
	out, err := exec.Command("go", "tool", "nm", testbin.Build(t, "cmd/attache")).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	var found []string
	for _, l := range strings.Split(string(out), "\n") {
		if scaffolding.MatchString(l) {
			found = append(found, strings.TrimSpace(l))
		}
	}
	if len(found) > 0 {
		t.Errorf("the release binary links %d symbols of the scenes, such as %q", len(found), found[:min(len(found), 5)])
	}
}
