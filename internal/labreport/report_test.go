package labreport

import (
	"bytes"
	"encoding/json"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
)

func sampleReport(synthetic bool) *labrun.Report {
	return &labrun.Report{
		Replay: labrun.Replay{Source: "turns.jsonl", Synthetic: synthetic, Turns: 4, Sessions: 1, Server: "demo",
			Account: "acme", Tools: []string{"get_memories", "search"}, ListingTokens: 100,
			Withheld: []string{"archive"}, ToolPolicy: consent.ToolsReadOnly},
		Strategies: []lab.Result{
			{Strategy: lab.Host, Turns: 4, Reach: 2.0 / 3, ItemReach: 0.5, RequestTokensPerRequest: 300, ContextTokensPerTurn: 250},
			{Strategy: lab.Tool, Turns: 4, Reach: 1.0 / 3, ItemReach: 0.5, ListingTokensPerRequest: 100, ListingShare: 0.25,
				ReachInterval: lab.Wilson(1, 3), ItemReachInterval: lab.Wilson(2, 4), DuplicateInterval: lab.Wilson(0, 4), Failures: 2,
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
	for _, want := range []string{"> **" + labrun.SyntheticNote + "**", "| tool | 4 | 33.3% (6.1–79.2) | 50.0% (15.0–85.0) | 0.0% (0.0–49.0) | 100 | 25.0% | 420 | 0 | 0 | 0 | 0 | 2 | 1 |",
		"| strategy | turns | reach (95% CI) |", "95% Wilson score interval",
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

// A replay some of whose servers could not be used says so, in bold,
// before the table, and names every server it used.
func TestMarkdownWarnings(t *testing.T) {
	rep := sampleReport(false)
	rep.Replay.Servers = []string{"demo/acme", "demo/globex"}
	rep.Replay.Unusable = []labrun.Unusable{{Origin: "server-memory", Reason: "server \"server-memory\" is not configured", Turns: 12}}
	md := Markdown(rep)
	for _, want := range []string{"replayed against its own server and account: `demo/acme`, `demo/globex`.",
		"> **Warning: server-memory could not be used (server \"server-memory\" is not configured): its attachments and calls in 12 turns are counted as failures"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if i, j := strings.Index(md, "Warning:"), strings.Index(md, "| strategy |"); i < 0 || i > j {
		t.Errorf("the warning is not before the table:\n%s", md)
	}
}

// The charts follow the palette: on a dark one the page is dark and the
// text light, as the app's dark theme wants.
func TestChartsInPalette(t *testing.T) {
	dark := Palette{Background: color.RGBA{0x17, 0x17, 0x18, 0xff}, Foreground: color.RGBA{0xf3, 0xf3, 0xf3, 0xff}, Grid: color.Gray{Y: 0x40}}
	for pl, wantDark := range map[*Palette]bool{&dark: true, &Light: false} {
		charts, err := ChartsIn(sampleReport(false), *pl)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range ChartNames {
			img, err := png.Decode(bytes.NewReader(charts[name]))
			if err != nil {
				t.Fatal(err)
			}
			r, g, b, _ := img.At(2, 2).RGBA() // a corner: the page
			light, dim := 0, 0
			bounds := img.Bounds()
			for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
				for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
					if cr, cg, cb, _ := img.At(x, y).RGBA(); cr > 0xe000 && cg > 0xe000 && cb > 0xe000 {
						light++
					} else {
						dim++
					}
				}
			}
			isDark := r < 0x4000 && g < 0x4000 && b < 0x4000
			if isDark != wantDark || (wantDark && light == 0) {
				t.Errorf("%s on %v: corner %x,%x,%x; %d light pixels, %d others", name, pl.Background, r, g, b, light, dim)
			}
		}
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
