package ctl

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/testbin"
)

var update = flag.Bool("update", false, "rewrite the goldens in testdata")

// wallMs is the one figure of a run that depends on the machine.
var wallMs = regexp.MustCompile(`"wallMs": \d+`)

// The bundled replay against the demo server: --json is stable (the wall
// time aside), and is kept as a golden (go test -run TestLabRunGolden
// -update to refresh it after a change of the replay, the corpus or the
// metrics).
func TestLabRunGolden(t *testing.T) {
	env := privateEnv(t)
	r := must(t, env, "lab", "run", "--bundled", "--server", "demo", "--json")
	got := wallMs.ReplaceAll([]byte(r.stdout), []byte(`"wallMs": 0`))
	// A second run, over a cache the first one filled, prints the same.
	again := wallMs.ReplaceAll([]byte(must(t, env, "lab", "run", "--bundled", "--server", "demo", "--json").stdout), []byte(`"wallMs": 0`))
	if !bytes.Equal(got, again) {
		t.Errorf("a second run differs:\n%s\n%s", got, again)
	}
	golden := filepath.Join("testdata", "lab-run.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("lab run --json differs from %s (run with -update if the change is meant):\n%s", golden, got)
	}
	for _, s := range []string{`"synthetic": true`, labrun.SyntheticNote, `"strategy": "both"`, `"freshness"`} {
		if !strings.Contains(string(got), s) {
			t.Errorf("the report lacks %q", s)
		}
	}
}

func TestLabRunTableAndOut(t *testing.T) {
	env := privateEnv(t)
	out := filepath.Join(t.TempDir(), "report")
	r := must(t, env, "lab", "run", "--bundled", "--server", "demo", "--strategies", "tool,host", "--out", out)
	lines := strings.Split(r.stdout, "\n")
	if lines[0] != labrun.SyntheticNote || !strings.Contains(lines[1], "249 turns in 30 sessions against demo") ||
		!strings.HasPrefix(lines[2], "STRATEGY") || !strings.HasPrefix(lines[3], "tool ") || !strings.HasPrefix(lines[4], "host ") ||
		!strings.HasPrefix(lines[5], "freshness: polling every 60s costs ") {
		t.Errorf("the table:\n%s", r.stdout)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(md), "> **Synthetic:") || !strings.Contains(string(md), "| tool | 249 |") || !strings.Contains(string(md), "![reach](reach.png)") {
		t.Errorf("report.md: %v\n%s", err, md)
	}
	for _, name := range []string{"reach.png", "tokens.png", "listing.png"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width < 300 || cfg.Height < 200 {
			t.Errorf("%s: %v %+v", name, err, cfg)
		}
		if !strings.Contains(r.stderr, "wrote "+filepath.Join(out, name)) {
			t.Errorf("stderr does not say %s was written: %s", name, r.stderr)
		}
	}
}

// lab check's exit codes: 0 when every threshold holds, 1 naming each that
// failed, 2 for bad input, 3 for a replay that is not there.
func TestLabCheckExitCodes(t *testing.T) {
	env := privateEnv(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z"}`+"\n{oops\n"), 0o644)
	check := []string{"lab", "check", "--bundled", "--server", "demo"}
	tests := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"all hold", append(check, "--min-reach", "0.5", "--max-duplicates", "0.6"), 0, []string{"every threshold holds"}},
		{"tool reach falls short", append(check, "--min-reach", "0.8"), 1, []string{"tool: reach 0.69", "below --min-reach 0.8000"}},
		{"both duplicates too many", append(check, "--max-duplicates", "0.05"), 1, []string{"both: duplicate rate 0.52", "above --max-duplicates 0.0500"}},
		{"only the strategy asked", append(check, "--strategy", "host", "--min-reach", "0.8", "--max-duplicates", "0"), 0, []string{"host: reach"}},
		{"no threshold", check, 2, []string{"give --min-reach"}},
		{"not a fraction", append(check, "--min-reach", "95"), 2, []string{"fractions between 0 and 1"}},
		{"a bad strategy", append(check, "--strategy", "attach", "--min-reach", "0.5"), 2, []string{`strategy "attach"`}},
		{"a bad replay", []string{"lab", "check", bad, "--server", "demo", "--min-reach", "0.5"}, 2, []string{"line 2: not a replay turn"}},
		{"no replay", []string{"lab", "check", filepath.Join(dir, "none.jsonl"), "--server", "demo", "--min-reach", "0.5"}, 3, []string{"reading the replay"}},
		{"no server", []string{"lab", "check", "--bundled", "--min-reach", "0.5"}, 2, []string{"--server"}},
		{"an unknown server", append(check[:3:3], "--server", "nope", "--min-reach", "0.5"), 2, []string{`no server named "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ctl(t, env, tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, s := range tt.out {
				if !strings.Contains(r.stdout+r.stderr, s) {
					t.Errorf("output lacks %q:\nstdout: %s\nstderr: %s", s, r.stdout, r.stderr)
				}
			}
		})
	}
}

// The demo server with its fetch tool hidden from Attaché: the tool
// strategy's recorded get_memories calls find no tool, and the listing
// shrinks. The comparison seed 002 asks for, from the same replay.
func TestLabWithoutTheFetchTool(t *testing.T) {
	env := privateEnv(t)
	db := filepath.Join(t.TempDir(), "tg.db")
	tg := testbin.Build(t, "cmd/threengram")
	run := func(extra string) lab.Result {
		var rep labrun.Report
		r := must(t, env, "lab", "run", "--bundled", "--strategies", "tool", "--json",
			"--stdio", tg+" --stdio --seed --tenant acme --db "+db+extra)
		if err := jsonUnmarshal(r.stdout, &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Strategies[0]
	}
	with, without := run(""), run(" --hide-fetch-tool-from attache")
	if with.Reach < 0.5 || without.Reach != 0 {
		t.Errorf("reach with the tool %v, without %v", with.Reach, without.Reach)
	}
	if without.ListingTokensPerRequest >= with.ListingTokensPerRequest || without.ListingTokensPerRequest == 0 {
		t.Errorf("listing with the tool %v, without %v", with.ListingTokensPerRequest, without.ListingTokensPerRequest)
	}
}

// export writes a conversation's real turns as a replay, which lab run
// reads; live, lab run asks the model and makes the calls it asks for.
func TestLabExportAndLive(t *testing.T) {
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"})
	defer srv.Close()
	env := modelEnv(t, models.OpenAI, srv, "")
	attached, other := chatWithContext(t, env)
	srv.Then(modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{
		{ID: "call_1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, other)}}}),
		modeltest.Say(modeltest.Reply{Text: "Done."}))
	must(t, env, "send", "chat", "What do I know?", "--provider", "scripted", "--tools", "auto")
	rel := filepath.Join(t.TempDir(), "relevant.json")
	os.WriteFile(rel, []byte(fmt.Sprintf(`{"1": ["threengram://memory/%s"]}`, other)), 0o644)
	r := must(t, env, "lab", "export", "chat", "--relevant", rel)
	turns, err := lab.Parse(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 1 || turns[0].User != "What do I know?" || len(turns[0].ToolCalls) != 1 ||
		turns[0].ToolCalls[0].Name != "get_memories" || !strings.Contains(strings.Join(turns[0].Attached, " "), attached) ||
		len(turns[0].Relevant) != 1 {
		t.Fatalf("exported: %+v", turns)
	}
	file := filepath.Join(t.TempDir(), "turns.jsonl")
	os.WriteFile(file, []byte(r.stdout), 0o644)
	var rep labrun.Report
	if err := jsonUnmarshal(must(t, env, "lab", "run", file, "--server", "demo", "--json").stdout, &rep); err != nil {
		t.Fatal(err)
	}
	// other was not attached: only the tool reaches it.
	reach := map[lab.Strategy]float64{}
	for _, s := range rep.Strategies {
		reach[s.Strategy] = s.Reach
	}
	if reach[lab.Host] != 0 || reach[lab.Tool] != 1 || reach[lab.Both] != 1 || rep.Replay.Synthetic {
		t.Errorf("the exported turn replayed: %+v", rep)
	}
	// Live: the model fetches nothing this time.
	srv.Then(modeltest.Say(modeltest.Reply{Text: "No need."}))
	if err := jsonUnmarshal(must(t, env, "lab", "run", file, "--server", "demo", "--strategies", "tool", "--provider", "scripted", "--json").stdout, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Replay.Live != "scripted (model-x)" || rep.Strategies[0].Reach != 0 || rep.Strategies[0].Requests != 1 {
		t.Errorf("live: %+v", rep)
	}
	// Marks kept with the turn serve when no file is given.
	must(t, env, "lab", "mark", "chat", "1", "threengram://memory/"+attached)
	must(t, env, "lab", "mark", "chat", "1", "x://gone")
	must(t, env, "lab", "mark", "chat", "1", "x://gone", "--off")
	if turns, err := lab.Parse(strings.NewReader(must(t, env, "lab", "export", "chat").stdout)); err != nil ||
		len(turns[0].Relevant) != 1 || turns[0].Relevant[0] != "threengram://memory/"+attached {
		t.Errorf("export with stored marks: %v %+v", err, turns)
	}
	if r := ctl(t, env, "lab", "mark", "chat", "7", "x://a"); r.code != 3 {
		t.Errorf("marking a turn that is not there: %+v", r)
	}
	if r := ctl(t, env, "lab", "export", "chat", "--relevant", file); r.code != 2 {
		t.Errorf("a relevance file that is not one: %+v", r)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
