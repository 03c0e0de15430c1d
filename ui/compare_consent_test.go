package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
)

// archiveReplay is a one-turn replay that records an archive of id.
func archiveReplay(id string) []byte {
	return fmt.Appendf(nil, `{"session":"s1","turn":1,"at":"2026-11-30T10:00:00Z","user":"hi","toolCalls":[{"name":"archive","arguments":{"id":%q}}]}`+"\n", id)
}

// lifecycleOf is the memory's live state on the demo, as acme.
func (h *harness) lifecycleOf(id string) hostcore.Lifecycle {
	h.t.Helper()
	c, err := h.host.Conn(hostcore.DemoServerName, "acme")
	if err != nil {
		h.t.Fatal(err)
	}
	states, err := c.MemoryLifecycle(context.Background(), []string{id})
	if err != nil {
		h.t.Fatal(err)
	}
	return states[id]
}

// runCompareWith runs the window's replay and answers each consent
// dialog with the button labelled by the next of answers; it returns the
// report.
func (h *harness) runCompareWith(c *compareView, answers ...string) *labrun.Report {
	h.t.Helper()
	h.do(c.start)
	for _, label := range answers {
		var b *button
		h.waitFor("the consent dialog", func() bool {
			h.do(func() {
				if c.pending != nil {
					b = findButton(c.win.Canvas(), label)
				}
			})
			return b != nil
		})
		h.do(func() { test.Tap(b) })
	}
	h.waitFor("the replay to end", func() bool { var r bool; h.do(func() { r = !c.running }); return r })
	h.settle()
	var rep *labrun.Report
	h.do(func() { rep = c.report })
	return rep
}

// The Compare window asks before a recorded call of a tool that is not
// read-only: denied for the run, the memory stays active and the table
// says "not run: denied"; with only read-only tools, no one is asked and
// the call is "not run: not read-only"; allowed, it runs.
func TestCompareAsksBeforeAWrite(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	h.do(h.app.OpenCompare)
	c := h.app.compareView()
	var err error
	h.do(func() {
		err = c.useReplay("archive.jsonl", archiveReplay(id))
		c.server.SetSelected(hostcore.DemoServerName)
		c.account.SetSelected("acme")
	})
	if err != nil {
		t.Fatal(err)
	}
	var policy string
	h.do(func() { policy = c.tools.Selected })
	if policy != toolsAskOthers {
		t.Errorf("the window's policy is %q, want to ask", policy)
	}
	rep := h.runCompareWith(c, "Deny archive for this run")
	if got := h.lifecycleOf(id); !got.Current() {
		t.Fatalf("a denied archive ran: %+v", got)
	}
	if s := strategy(rep, lab.Tool); s.NotRun != 1 || len(s.Calls) != 1 || s.Calls[0].Decision != "not run: denied" {
		t.Errorf("the tool strategy after Deny: %+v", s)
	}
	h.do(func() {
		if !strings.Contains(c.table.Text, "tool: 1 call of archive not run: denied") {
			t.Errorf("the table does not say the call was not run:\n%s", c.table.Text)
		}
	})
	h.do(func() { c.tools.SetSelected(toolsReadOnly) })
	rep = h.runCompareWith(c)
	if s := strategy(rep, lab.Both); s.NotRun != 1 || s.Calls[0].Decision != "not run: not read-only" || !h.lifecycleOf(id).Current() {
		t.Errorf("only read-only tools: %+v", s)
	}
	h.do(func() {
		if !strings.Contains(c.table.Text, "not run: not read-only") || !strings.Contains(c.what.Text, "Not offered (not read-only): archive") {
			t.Errorf("the window after a read-only run:\n%s\n%s", c.what.Text, c.table.Text)
		}
	})
	h.do(func() { c.tools.SetSelected(toolsAskOthers) })
	rep = h.runCompareWith(c, "Allow archive for this run")
	if got := h.lifecycleOf(id); got.Status != "archived" {
		t.Errorf("an allowed archive did not run: %+v", got)
	}
	if s := strategy(rep, lab.Tool); s.NotRun != 0 || s.Calls[0].Decision != "ran: allowed always" {
		t.Errorf("the tool strategy after Allow: %+v", s)
	}
}

// strategy is rep's result for s.
func strategy(rep *labrun.Report, s lab.Strategy) lab.Result {
	for _, r := range rep.Strategies {
		if r.Strategy == s {
			return r
		}
	}
	return lab.Result{}
}
