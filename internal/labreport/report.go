package labreport

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// Files --out writes beside the charts.
const (
	MarkdownFile = "report.md"
	JSONFile     = "report.json"
)

// Markdown renders rep for a person: what was replayed, the table, the
// freshness comparison and the charts (by file name).
func Markdown(rep *hostcore.LabReport) string {
	var b strings.Builder
	r := rep.Replay
	b.WriteString("# Comparison lab: host-attached versus tool-fetched context\n\n")
	if r.Synthetic {
		fmt.Fprintf(&b, "> **%s**\n\n", hostcore.SyntheticNote)
	}
	src := r.Source
	if src == "" {
		src = "a replay"
	}
	fmt.Fprintf(&b, "%s: %s in %s, against `%s`", src, pack.Quantity(r.Turns, "turn"), pack.Quantity(r.Sessions, "session"), r.Server)
	if r.Account != "" {
		fmt.Fprintf(&b, " as `%s`", r.Account)
	}
	b.WriteString(".")
	if r.Live != "" {
		fmt.Fprintf(&b, " Live: %s was asked every turn, and its calls were made.", r.Live)
	} else {
		b.WriteString(" The recorded tool calls were made.")
	}
	fmt.Fprintf(&b, " The server listed %s (%s); their listing costs %s a request.\n\n",
		pack.Quantity(len(r.Tools), "tool"), strings.Join(r.Tools, ", "), pack.Quantity(r.ListingTokens, "token"))
	b.WriteString("| strategy | turns | reach | item reach | duplicates | listing tokens/request | listing share | context tokens/turn | round trips | bytes | wall ms | cache hits | failures |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range rep.Strategies {
		fmt.Fprintf(&b, "| %s | %d | %.1f%% | %.1f%% | %.1f%% | %.0f | %.1f%% | %.0f | %d | %d | %d | %d | %d |\n",
			s.Strategy, s.Turns, 100*s.Reach, 100*s.ItemReach, 100*s.DuplicateRate, s.ListingTokensPerRequest,
			100*s.ListingShare, s.ContextTokensPerTurn, s.RoundTrips, s.Bytes, s.WallMs, s.CacheHits, s.Failures)
	}
	if len(rep.Strategies) > 0 {
		s := rep.Strategies[0]
		fmt.Fprintf(&b, "\nReach counts the %s that %s data (of %s); duplicates count every turn.\n",
			pack.Quantity(s.RelevantTurns, "turn"), pack.Plural(s.RelevantTurns, "needs", "need"), pack.Quantity(s.RelevantItems, "relevant item"))
	}
	f := rep.Freshness
	fmt.Fprintf(&b, "\n## Freshness\n\nOver %.2f session-hours (%.0f turns a session-hour), polling every attached resource every %.0f s costs %.0f reads a session-hour; reading each again on every turn costs %.0f.\n",
		f.SessionHours, f.TurnsPerSessionHour, f.PollIntervalSeconds, f.PollReadsPerSessionHour, f.PerTurnReadsPerSessionHour)
	b.WriteString("\n## Charts\n\n")
	for _, name := range ChartNames {
		fmt.Fprintf(&b, "![%s](%s)\n", strings.TrimSuffix(name, ".png"), name)
	}
	return b.String()
}

// JSON is rep as attachectl lab run --json prints it.
func JSON(rep *hostcore.LabReport) ([]byte, error) {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write writes the Markdown, the JSON and the charts into dir, creating
// it, and returns the paths written.
func Write(dir string, rep *hostcore.LabReport) ([]string, error) {
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
