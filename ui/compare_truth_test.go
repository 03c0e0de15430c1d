package ui

import (
	"bytes"
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

// After a synthetic run, "Replay these turns" takes the old figures,
// charts and Synthetic note down at once, runs the conversation's turns,
// labels them with the conversation, has a FAILURES column and names the
// server it could not use; the legend explains every column; the charts
// are drawn again in a new theme.
func TestCompareTellsTheWholeTruth(t *testing.T) {
	h := newHarness(t)
	ids := h.memoryIDs("acme", "m", 1)
	uri := "threengram://memory/" + ids[0]
	var conv int64
	h.do(func() {
		h.app.sh.opts.Chat = chat.New(h.cv, h.st, nil)
		conv = h.app.sh.conv.ID
	})
	items := []chat.SentItem{{URI: uri, Server: "demo", Account: "acme", Verdict: pack.VerdictIncluded},
		{URI: "memory://entities/x", Server: "server-memory", Verdict: pack.VerdictIncluded}}
	if _, err := h.st.StartTurn(context.Background(), chat.Turn{ConversationID: conv, StartedAt: testNow, Status: chat.TurnDone,
		Context: chat.SentContext{Items: items}, Relevant: []string{uri, "memory://entities/x"},
		Messages: []chat.Message{{Role: chat.RoleUser, Text: "what about it?"}}}); err != nil {
		t.Fatal(err)
	}
	h.do(h.app.OpenCompare)
	c := h.app.compareView()
	if err := h.try(func() error { return h.app.RunCompare(hostcore.DemoServerName, "acme") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.do(func() { c.tabs.SelectIndex(1) })
	h.settle()
	h.do(func() {
		test.Tap(c.marks.use)
		if c.table.Text != noFigures || len(c.charts.Objects) != 0 || c.note.Text != "" || c.report != nil {
			t.Errorf("the synthetic results stay beside the new run: table %q, %d charts, note %q", c.table.Text, len(c.charts.Objects), c.note.Text)
		}
	})
	h.settle()
	var rep *labrun.Report
	h.do(func() { rep = h.app.CompareReport() })
	if rep == nil || rep.Replay.Synthetic || rep.Replay.Turns != 1 || !strings.HasPrefix(rep.Replay.Source, "Conversation ") {
		t.Fatalf("Replay these turns did not run the conversation's turns: %+v", rep)
	}
	h.do(func() {
		head := strings.SplitN(c.table.Text, "\n", 2)[0]
		if !strings.Contains(head, "FAILURES") || !strings.Contains(c.table.Text, "(") || c.note.Text != "" {
			t.Errorf("the table:\n%s\nnote %q", c.table.Text, c.note.Text)
		}
		if !strings.Contains(c.warnings(), "server-memory could not be used") || !strings.HasPrefix(c.what.Text, "Conversation ") {
			t.Errorf("warning %q, what %q", c.warnings(), c.what.Text)
		}
		for _, col := range []string{"REACH", "ITEMREACH", "LISTING%", "WALLMS", "FAILURES", "NOTRUN"} {
			if !legendExplains(col) {
				t.Errorf("the legend does not explain %s", col)
			}
		}
	})
	var before []byte
	h.do(func() { before = c.chartsOf[labreport.ReachChart] })
	h.do(func() { fyne.CurrentApp().Settings().SetTheme(newReadableTheme(ThemeDark)) })
	h.settle()
	h.do(func() {
		if after := c.chartsOf[labreport.ReachChart]; len(after) == 0 || bytes.Equal(before, after) {
			t.Error("the charts were not drawn again in the new theme")
		}
	})
}

func legendExplains(col string) bool {
	for _, c := range compareColumns {
		if strings.HasPrefix(c.name, col+" ") || c.name == col {
			return c.meaning != ""
		}
	}
	return false
}
