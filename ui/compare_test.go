package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
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
	var rep *labrun.Report
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
		if c.note.Text != labrun.SyntheticNote || !strings.Contains(c.fresh.Text, "reads per session-hour") {
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

// "Your turns" lists the conversation's turns with a checkbox per
// attachment; a tick is kept with the turn, and the turns, with their
// marks, become the replay to run.
func TestCompareMarksTurns(t *testing.T) {
	h := newHarness(t)
	ids := h.memoryIDs("acme", "m", 1)
	h.attachIDs(ids[0])
	uri := "threengram://memory/" + ids[0]
	store := h.st
	var conv int64
	h.do(func() {
		h.app.sh.opts.Chat = chat.New(h.cv, store, nil)
		conv = h.app.sh.conv.ID
	})
	_, err := store.StartTurn(context.Background(), chat.Turn{ConversationID: conv, StartedAt: testNow, Status: chat.TurnDone,
		Context:  chat.SentContext{Items: []chat.SentItem{{URI: uri, Server: "demo", Verdict: pack.VerdictIncluded}}},
		Messages: []chat.Message{{Role: chat.RoleUser, Text: "what about it?"}}})
	if err != nil {
		t.Fatal(err)
	}
	h.do(h.app.OpenCompare)
	c := h.app.compareView()
	h.do(func() { c.tabs.SelectIndex(1) })
	h.settle()
	var box *check
	h.do(func() {
		for _, o := range c.marks.list.Objects {
			if p, ok := o.(*fyne.Container); ok {
				if ch, ok := p.Objects[0].(*check); ok && strings.HasPrefix(ch.Text, uri) {
					box = ch
				}
			}
		}
	})
	if box == nil {
		t.Fatal("no checkbox for the turn's attachment")
	}
	h.do(func() { test.Tap(box) })
	h.settle()
	turns, err := store.Turns(context.Background(), conv)
	if err != nil || len(turns) != 1 || len(turns[0].Relevant) != 1 || turns[0].Relevant[0] != uri {
		t.Fatalf("the tick was not kept: %v %+v", err, turns)
	}
	h.do(func() { test.Tap(c.marks.use) })
	h.do(func() {
		if len(c.replay) != 1 || c.bundled || c.replay[0].Relevant[0] != uri || c.tabs.SelectedIndex() != 0 {
			t.Errorf("the replay: %+v (bundled %v)", c.replay, c.bundled)
		}
	})
	h.settle()
	var rep *labrun.Report
	h.do(func() { rep = h.app.CompareReport() })
	if rep == nil || rep.Replay.Synthetic || rep.Replay.Turns != 1 || rep.Strategies[0].Reach != 1 {
		t.Fatalf("the run of the conversation's turn: %+v", rep)
	}
}

// The table's columns do not widen the window: its monospace table, wider
// than the window after a replay with failures, scrolls sideways, so the
// FAILURES and NOTRUN columns stay in reach instead of cut off.
func TestCompareTableScrollsSideways(t *testing.T) {
	h := newHarness(t)
	h.do(h.app.OpenCompare)
	c := h.app.compareView()
	if err := h.try(func() error { return h.app.RunCompare(hostcore.DemoServerName, "acme") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.do(func() {
		win := c.win.Canvas().Size().Width
		table := c.table.MinSize().Width
		if !strings.Contains(c.table.Text, "FAILURES") || !strings.Contains(c.table.Text, "NOTRUN") {
			t.Fatalf("the table has no FAILURES and NOTRUN columns:\n%s", c.table.Text)
		}
		if table <= win {
			t.Fatalf("the table (%v wide) fits the window (%v) already: the check proves nothing", table, win)
		}
		if got := c.win.Content().MinSize().Width; got > win {
			t.Errorf("the window's content needs %v px, more than the window's %v: the table's columns are cut off", got, win)
		}
	})
}
