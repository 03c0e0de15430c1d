package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/internal/modeltest"
)

// The approval dialog shows a call's arguments as indented JSON in a
// fixed-width font, each line drawn whole: no key or value is broken
// across lines, however long (a line wider than the dialog scrolls).
func TestApprovalShowsJSONWhole(t *testing.T) {
	args := `{"query":"deadlines of the rocket-sled project and of the anvil-api project, with their owners","limit":5}`
	h, c, _, _ := chatHarness(t,
		func(modeltest.Request) modeltest.Reply {
			return modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "call_1", Name: "search", Arguments: args}}}
		},
		modeltest.Say(modeltest.Reply{Text: "Done."}))
	h.sendChat(c, "Find the deadlines")
	h.waitFor("the approval dialog", func() bool {
		var shown bool
		h.do(func() { shown = findButton(c.win.Canvas(), "Allow once") != nil })
		return shown
	})
	var want bytes.Buffer
	json.Indent(&want, []byte(args), "", "  ")
	h.do(func() {
		var shown *widget.Label
		for _, o := range test.LaidOutObjects(c.win.Canvas().Overlays().Top()) {
			if l, ok := o.(*widget.Label); ok && l.TextStyle.Monospace {
				shown = l
			}
		}
		if shown == nil {
			t.Fatal("the dialog shows no arguments in a fixed-width font")
		}
		var lines []string
		for _, o := range test.LaidOutObjects(shown) {
			if tx, ok := o.(*canvas.Text); ok {
				lines = append(lines, tx.Text)
			}
		}
		if got := strings.Join(lines, "\n"); got != want.String() {
			t.Errorf("the arguments are drawn as these lines:\n%s\nwant each line of the indented JSON whole:\n%s", got, want.String())
		}
	})
	h.do(func() { c.pending(consent.ApproveDeny) })
	h.waitTurnEnd(c)
}

// A line too long to draw as one (over codeLineMax) is broken where the
// break shows; shorter ones are left as they are.
func TestBreakLongLines(t *testing.T) {
	long := strings.Repeat("a", 2*codeLineMax+3)
	got := breakLongLines("short\n"+long, codeLineMax)
	want := "short\n" + long[:codeLineMax] + codeBreak + "\n" + long[codeLineMax:2*codeLineMax] + codeBreak + "\n" + "aaa"
	if got != want {
		t.Errorf("breakLongLines: %d lines, want 4", strings.Count(got, "\n")+1)
	}
	if s := breakLongLines("a\nb", codeLineMax); s != "a\nb" {
		t.Errorf("short lines changed: %q", s)
	}
}
