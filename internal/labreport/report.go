package labreport

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
)

// Files --out writes beside the charts.
const (
	MarkdownFile = "report.md"
	JSONFile     = "report.json"
)

// Markdown renders rep for a person: what was replayed, the table, the
// freshness comparison and the charts (by file name).
func Markdown(rep *labrun.Report) string {
	var b strings.Builder
	r := rep.Replay
	b.WriteString("# Comparison lab: host-attached versus tool-fetched context\n\n")
	if r.Synthetic {
		fmt.Fprintf(&b, "> **%s**\n\n", labrun.SyntheticNote)
	}
	writeReplay(&b, r)
	writeWarnings(&b, rep)
	b.WriteString("\n\n| strategy | turns | reach (95% CI) | item reach (95% CI) | duplicates (95% CI) | listing tokens/request | listing share | context tokens/turn | round trips | bytes | wall ms | cache hits | failures | not run |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range rep.Strategies {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %.0f | %.1f%% | %.0f | %d | %d | %d | %d | %d | %d |\n",
			s.Strategy, s.Turns, labrun.Rate(s.Reach, s.ReachInterval), labrun.Rate(s.ItemReach, s.ItemReachInterval),
			labrun.Rate(s.DuplicateRate, s.DuplicateInterval), s.ListingTokensPerRequest,
			100*s.ListingShare, s.ContextTokensPerTurn, s.RoundTrips, s.Bytes, s.WallMs, s.CacheHits, s.Failures, s.NotRun)
	}
	if len(rep.Strategies) > 0 {
		s := rep.Strategies[0]
		fmt.Fprintf(&b, "\nReach counts the %s that %s data (of %s); duplicates count every turn. "+
			"Each rate is followed by its 95%% Wilson score interval: a difference between strategies inside the intervals may be noise. "+
			"Failures count the reads and tool calls that failed, and the attachments whose own server could not be used.\n",
			pack.Quantity(s.RelevantTurns, "turn"), pack.Plural(s.RelevantTurns, "needs", "need"), pack.Quantity(s.RelevantItems, "relevant item"))
	}
	writeCalls(&b, rep)
	writeHeldBack(&b, rep)
	f := rep.Freshness
	fmt.Fprintf(&b, "\n## Freshness\n\nOver %.2f session-hours (%.0f turns a session-hour), polling every attached resource every %.0f s costs %.0f reads a session-hour; reading each again on every turn costs %.0f.\n",
		f.SessionHours, f.TurnsPerSessionHour, f.PollIntervalSeconds, f.PollReadsPerSessionHour, f.PerTurnReadsPerSessionHour)
	b.WriteString("\n## Charts\n\n")
	for _, name := range ChartNames {
		fmt.Fprintf(&b, "![%s](%s)\n", strings.TrimSuffix(name, ".png"), name)
	}
	return b.String()
}

// writeReplay says what was replayed, against what, and how its calls
// were decided on.
func writeReplay(b *strings.Builder, r labrun.Replay) {
	src := r.Source
	if src == "" {
		src = "a replay"
	}
	fmt.Fprintf(b, "%s: %s in %s, against `%s`", src, pack.Quantity(r.Turns, "turn"), pack.Quantity(r.Sessions, "session"), r.Server)
	if r.Account != "" {
		fmt.Fprintf(b, " as `%s`", r.Account)
	}
	b.WriteString(".")
	if r.Live != "" {
		fmt.Fprintf(b, " Live: %s was asked every turn, and the host's consent gate decided on each call it made.", r.Live)
	} else {
		b.WriteString(" The host's consent gate decided on each recorded tool call.")
	}
	if w := policyWords[r.ToolPolicy]; w != "" {
		fmt.Fprintf(b, " %s.", w)
	}
	fmt.Fprintf(b, " %s %s offered (%s); their listing costs %s a request.",
		pack.Quantity(len(r.Tools), "tool"), pack.Plural(len(r.Tools), "was", "were"), strings.Join(r.Tools, ", "), pack.Quantity(r.ListingTokens, "token"))
	if len(r.Withheld) > 0 {
		fmt.Fprintf(b, " Not offered, not read-only: %s.", strings.Join(r.Withheld, ", "))
	}
}

// writeWarnings names the servers each attachment was replayed against,
// and, in bold, the ones the replay could not use.
func writeWarnings(b *strings.Builder, rep *labrun.Report) {
	if len(rep.Replay.Servers) > 1 {
		fmt.Fprintf(b, " Each attachment was replayed against its own server and account: `%s`.", strings.Join(rep.Replay.Servers, "`, `"))
	}
	for _, w := range labrun.Warnings(rep) {
		fmt.Fprintf(b, "\n\n> **%s**", strings.ToUpper(w[:1])+w[1:])
	}
}

// policyWords say how a run's calls were decided on.
var policyWords = map[consent.ToolPolicy]string{
	consent.ToolsReadOnly: "Only the tools the server marks read-only were offered and run",
	consent.ToolsAsk:      "Every tool was offered, and a person was asked before each call of one that is not read-only",
	consent.ToolsAuto:     "Every tool was offered and every call run (--tools auto)",
}

// writeCalls lists every strategy's calls by tool and decision, the ones
// not run included.
func writeCalls(b *strings.Builder, rep *labrun.Report) {
	var rows []string
	for _, s := range rep.Strategies {
		for _, c := range s.Calls {
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %d |\n", s.Strategy, c.Tool, c.Decision, c.Calls))
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n## Tool calls\n\nEvery call, recorded or live, passed the host's consent gate: who or what approved it, or why it was not run.\n\n")
	b.WriteString("| strategy | tool | decision | calls |\n|---|---|---|---:|\n")
	for _, r := range rows {
		b.WriteString(r)
	}
}

// writeHeldBack lists the resources tool results gave for the person
// only, which the host did not send to the model.
func writeHeldBack(b *strings.Builder, rep *labrun.Report) {
	lines := labrun.HeldBack(rep)
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n## Held back from the model\n\nResources a tool result embedded or linked for the person only (audience user): the host shows them and does not send them, so they do not reach the context.\n\n")
	for _, l := range lines {
		b.WriteString("- " + l + "\n")
	}
}

// JSON is rep as attachectl lab run --json prints it.
func JSON(rep *labrun.Report) ([]byte, error) {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write writes the Markdown, the JSON and the charts into dir, creating
// it, and returns the paths written.
func Write(dir string, rep *labrun.Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	js, err := JSON(rep)
	if err != nil {
		return nil, err
	}
	charts, err := Charts(rep)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{MarkdownFile: []byte(Markdown(rep)), JSONFile: js}
	for name, b := range charts {
		files[name] = b
	}
	var paths []string
	for _, name := range append([]string{MarkdownFile, JSONFile}, ChartNames...) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
