package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
)

// A first launch is connected to the demo, with a conversation ready, and
// shows the template workbench with the first ids to pick from: a person
// can find a memory without reading anything.
func TestFirstScreen(t *testing.T) {
	h := newHarness(t)
	a := h.app
	if c := a.sh.conn; c == nil || c.Server.Name != hostcore.DemoServerName || c.Account.Name != "acme" {
		t.Fatalf("first launch browses %v, want the demo as acme", c)
	}
	if got := a.sh.conn.Info().State; got != hostcore.StateConnected {
		t.Errorf("demo connection is %s, want connected", got)
	}
	if a.sh.conv.ID == 0 || a.sh.conv.Title != firstTitle {
		t.Errorf("conversation = %+v, want a fresh %q", a.sh.conv, firstTitle)
	}
	if got := a.picker.current(); got != TabTemplates {
		t.Errorf("picker shows tab %d, want the templates (the demo lists no resources)", got)
	}
	if len(a.picker.templates.suggestions) == 0 {
		t.Error("no memory ids suggested before typing")
	}
	for _, s := range a.picker.templates.suggestions {
		if !strings.HasPrefix(s, "m") {
			t.Errorf("suggestion %q is not a memory id", s)
		}
	}
	assertMarkup(t, "first_screen.xml", a.Content())
}

// The window's size, the last conversation and the budget are remembered
// across launches.
func TestPreferencesRemembered(t *testing.T) {
	h := newHarness(t)
	h.do(func() { h.app.Window().Resize(fyne.NewSize(1100, 700)) })
	h.do(func() { h.app.conversations.create("Second") })
	h.do(func() { h.app.SetBudget(5000) })
	h.settle()
	second := h.app.sh.conv
	if second.Title != "Second" {
		t.Fatalf("conversation = %q after creating one, want Second", second.Title)
	}
	h.do(func() { h.app.Close() })

	h.open() // a second launch over the same stores and preferences
	if got := h.app.sh.conv.ID; got != second.ID {
		t.Errorf("second launch opened conversation %d, want the last one used, %d", got, second.ID)
	}
	if got := h.app.Window().Canvas().Size(); got != fyne.NewSize(1100, 700) {
		t.Errorf("second launch's window is %v, want 1100x700", got)
	}
	if got := h.app.attachments.packing.Budget; got != 5000 {
		t.Errorf("second launch packs into %d tokens, want the 5000 set before", got)
	}
}

// With AfterFirstFrame, New builds the window and marks the server in use
// but starts nothing: no connection, no listing, no conversation read, so
// the first frame waits for none of them. Once started, the first screen
// is the one a window that started at once shows.
func TestAfterFirstFrameDefersTheWork(t *testing.T) {
	var start func()
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir(), afterFirstFrame: func(f func()) { start = f }}
	h.open()
	a := h.app
	if start == nil {
		t.Fatal("New did not hand its work to AfterFirstFrame")
	}
	if c := a.sh.conn; c == nil || c.Server.Name != hostcore.DemoServerName {
		t.Fatalf("before the first frame the window marks %v in use, want the demo", c)
	}
	if got := a.sh.conn.Info().State; got == hostcore.StateConnected || got == hostcore.StateConnecting {
		t.Errorf("before the first frame the demo is %s: New connected", got)
	}
	if a.sh.conv.ID != 0 {
		t.Errorf("before the first frame conversation %d is loaded", a.sh.conv.ID)
	}
	h.do(start)
	h.settle()
	if got := a.sh.conn.Info().State; got != hostcore.StateConnected {
		t.Errorf("once started the demo is %s, want connected", got)
	}
	if a.sh.conv.ID == 0 || a.sh.conv.Title != firstTitle {
		t.Errorf("once started the conversation is %+v, want a fresh %q", a.sh.conv, firstTitle)
	}
	assertMarkup(t, "first_screen.xml", a.Content())
}

// The tools tab's result, hidden behind the inspector on the first
// screen, is made and goes in when it is first brought to the front: the
// first frame neither builds nor lays it out.
func TestResultPaneWaitsForItsFirstShow(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir(), afterFirstFrame: func(func()) {}}
	h.open()
	a := h.app
	h.do(func() {
		if c, ok := a.lower.Objects[1].(*fyne.Container); a.results.root != nil || !ok || len(c.Objects) != 0 {
			t.Fatalf("before it was shown, the result's place holds %T", a.lower.Objects[1])
		}
		a.showResults(true)
		pane := a.results.root
		if pane == nil || a.lower.Objects[1] != pane || !pane.Visible() || a.lower.Objects[0].Visible() {
			t.Error("brought to the front, the result's screen is not the one shown")
		}
	})
}
