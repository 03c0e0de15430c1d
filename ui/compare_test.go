package ui

import (
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/labreport"
)

// The Compare window replays the bundled replay against the demo server
// and shows the table, the freshness line and the three charts, labelled
// synthetic; a file that is not a replay is refused and the replay in use
// stays.
func TestCompare(t *testing.T) {
	h := newHarness(t)
	h.do(h.app.OpenCompare)
	c := h.app.compareView()
	if c.win == nil || c.server.Selected != hostcore.DemoServerName || c.account.Selected != "acme" {
		t.Fatalf("the window opens on the demo as acme: server %q, account %q", c.server.Selected, c.account.Selected)
	}
	if err := h.try(func() error { return h.app.RunCompare(hostcore.DemoServerName, "acme") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	var rep *hostcore.LabReport
	h.do(func() { rep = h.app.CompareReport() })
	if rep == nil || len(rep.Strategies) != 3 || !rep.Replay.Synthetic || rep.Replay.Turns < 240 {
		t.Fatalf("report: %+v", rep)
	}
	h.do(func() {
		if c.running || c.progress.Value != 1 || c.runBtn.Disabled() {
			t.Errorf("after the run: running %v, progress %v, Run disabled %v", c.running, c.progress.Value, c.runBtn.Disabled())
		}
		if !strings.HasPrefix(c.table.Text, "STRATEGY") || !strings.Contains(c.table.Text, "\nboth ") {
			t.Errorf("the table:\n%s", c.table.Text)
		}
		if c.note.Text != hostcore.SyntheticNote || !strings.Contains(c.fresh.Text, "reads per session-hour") {
			t.Errorf("note %q, freshness %q", c.note.Text, c.fresh.Text)
		}
		if len(c.charts.Objects) != len(labreport.ChartNames) {
			t.Errorf("%d charts shown", len(c.charts.Objects))
		}
	})
	var err error
	h.do(func() { err = c.useReplay("bad.jsonl", []byte("{oops\n")) })
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad replay: %v", err)
	}
	own := `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","user":"hi","relevant":[]}`
	h.do(func() { err = c.useReplay("own.jsonl", []byte(own)) })
	h.do(func() {
		if err != nil || len(c.replay) != 1 || c.bundled || c.note.Text != "" {
			t.Errorf("an own replay: %v, %d turns, synthetic %v, note %q", err, len(c.replay), c.bundled, c.note.Text)
		}
	})
}
