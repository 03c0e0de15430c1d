package labrun_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/internal/hosttest"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// In the lab, the resources in a tool result count as resources: one
// embedded whole for the model reaches the context, as an attached body
// would; one embedded for the person only does not, and the report names
// it as held back; a link delivers no data.
func TestRunLabToolResultResources(t *testing.T) {
	h := hosttest.Host(t, nil)
	sc := config.ServerConfig{Name: mcptest.ModeV2026, Command: testbin.Build(t, "internal/mcptest/mcptestd"),
		Args: []string{"--mode", mcptest.ModeV2026, "--stdio"}}
	c := hosttest.Conn(t, h, sc, "")
	call := fmt.Sprintf(`"toolCalls":[{"name":%q,"arguments":{}}]`, mcptest.DeliverTool)
	lines := []string{
		fmt.Sprintf(`{"session":"s","turn":1,"at":"2026-11-30T10:01:00Z","user":"the readme?","relevant":[%q],%s}`, mcptest.ReadmeURI, call),
		fmt.Sprintf(`{"session":"s","turn":2,"at":"2026-11-30T10:02:00Z","user":"the notes?","relevant":[%q],%s}`, mcptest.NotesURI, call),
		fmt.Sprintf(`{"session":"s","turn":3,"at":"2026-11-30T10:03:00Z","user":"the logo?","relevant":[%q],%s}`, mcptest.LogoURI, call),
	}
	turns, err := lab.Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := labrun.Run(context.Background(), c, turns, &labrun.Options{Strategies: []lab.Strategy{lab.Tool}})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Strategies[0]
	if r.RelevantTurns != 3 || r.ItemReach != 1.0/3 || r.NotRun != 0 {
		t.Errorf("the tool strategy: %+v; want the readme alone reached, of three", r)
	}
	if diff := cmp.Diff([]string{mcptest.NotesURI}, r.HeldBack); diff != "" {
		t.Errorf("held back (-want +got):\n%s", diff)
	}
	want := "tool: held back from the model (for the person only): 1 resource, " + mcptest.NotesURI
	if table := labrun.Table(rep); !strings.Contains(table, want) {
		t.Errorf("the table lacks %q:\n%s", want, table)
	}
}
