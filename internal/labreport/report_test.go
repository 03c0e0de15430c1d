package labreport

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
)

func sampleReport(synthetic bool) *labrun.Report {
	return &labrun.Report{
		Replay: labrun.Replay{Source: "turns.jsonl", Synthetic: synthetic, Turns: 4, Sessions: 1, Server: "demo",
			Account: "acme", Tools: []string{"get_memories", "search"}, ListingTokens: 100,
			Withheld: []string{"archive"}, ToolPolicy: hostcore.ToolsReadOnly},
		Strategies: []lab.Result{
			{Strategy: lab.Host, Turns: 4, Reach: 2.0 / 3, ItemReach: 0.5, RequestTokensPerRequest: 300, ContextTokensPerTurn: 250},
			{Strategy: lab.Tool, Turns: 4, Reach: 1.0 / 3, ItemReach: 0.5, ListingTokensPerRequest: 100, ListingShare: 0.25,
				RequestTokensPerRequest: 400, ContextTokensPerTurn: 420, NotRun: 1, Calls: []lab.CallTally{
					{Tool: "archive", Decision: "not run: not read-only", Calls: 1},
					{Tool: "get_memories", Run: true, Decision: "ran: read-only", Calls: 3}}, HeldBack: []string{"demo://notes/private"}},
			{Strategy: lab.Both, Turns: 4, Reach: 2.0 / 3, ItemReach: 0.75, DuplicateRate: 0.25, ListingTokensPerRequest: 100,
				ListingShare: 0.2, RequestTokensPerRequest: 500, ContextTokensPerTurn: 600},
		},
		Freshness: lab.Freshness{PollIntervalSeconds: 60, SessionHours: 0.5, PollReadsPerSessionHour: 80, PerTurnReadsPerSessionHour: 10},
	}
}

func TestMarkdown(t *testing.T) {
	md := Markdown(sampleReport(true))
	for _, want := range []string{"> **" + labrun.SyntheticNote + "**", "| tool | 4 | 33.3% | 50.0% | 0.0% | 100 | 25.0% | 420 | 0 | 0 | 0 | 0 | 0 | 1 |",
		"costs 80 reads a session-hour; reading each again on every turn costs 10", "![listing](listing.png)",
		"Only the tools the server marks read-only were offered and run. 2 tools were offered (get_memories, search)",
		"Not offered, not read-only: archive.", "| tool | archive | not run: not read-only | 1 |", "| tool | get_memories | ran: read-only | 3 |",
		"## Held back from the model", "- tool: held back from the model (for the person only): 1 resource, demo://notes/private"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(Markdown(sampleReport(false)), "Synthetic") {
		t.Error("a report of real turns is labelled synthetic")
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	paths, err := Write(dir, sampleReport(true))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 5 {
		t.Fatalf("wrote %v", paths)
	}
	var back labrun.Report
	b, _ := os.ReadFile(filepath.Join(dir, JSONFile))
	if err := json.Unmarshal(b, &back); err != nil || back.Strategies[2].DuplicateRate != 0.25 || !back.Replay.Synthetic {
		t.Errorf("report.json: %v %+v", err, back)
	}
	for _, name := range ChartNames {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// A chart is drawn: more than the background's colour.
		colours := map[[4]uint32]bool{}
		bounds := img.Bounds()
		for y := bounds.Min.Y; y < bounds.Max.Y; y += 3 {
			for x := bounds.Min.X; x < bounds.Max.X; x += 3 {
				r, g, b, a := img.At(x, y).RGBA()
				colours[[4]uint32{r, g, b, a}] = true
			}
		}
		if len(colours) < 4 || len(b) > 60<<10 {
			t.Errorf("%s: %d colours, %d bytes", name, len(colours), len(b))
		}
	}
}
