package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/npmpeer"
)

// The drift of issue 20, as a new user meets it, with the npm
// server-memory and a scripted model: attach memory://knowledge-graph, let
// the model call create_entities (the server says the graph changed), send
// again. The second turn re-reads the attachment and sends its new body;
// without a restart, the row's tokens, the budget meter, the context
// preview and the stale badge all show what that turn sent.
func TestLiveDriftAfterATurn(t *testing.T) {
	entry := npmpeer.Entry(t, "server-memory")
	srv := modeltest.New(nil,
		func(modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Text: "Let me remember that.", ToolCalls: []modeltest.Call{{ID: "call_1", Name: "create_entities",
				Arguments: `{"entities":[{"name":"Attaché","entityType":"host","observations":["keeps the context the model is sent in view"]}]}`}}}
		},
		modeltest.Say(modeltest.Reply{Text: "Remembered."}),
		modeltest.Say(modeltest.Reply{Text: "The graph holds Attaché now."}))
	t.Cleanup(srv.Close)
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = []config.ServerConfig{{Name: "memory", Title: "memory", Source: "builtin", Command: "node", Args: []string{entry},
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(h.dir, "memory.jsonl")}}}
	h.open()
	if err := h.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: models.OpenAI,
		BaseURL: srv.OpenAIBaseURL(), Model: "scripted-1", MaxRetries: new(int)}); err != nil {
		t.Fatal(err)
	}
	if err := h.try(func() error { return h.app.SelectServer("memory", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource("memory://knowledge-graph") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach)
	h.settle()
	p := h.app.attachments
	var before pack.Decision
	h.do(func() {
		if len(p.rows) == 1 {
			before = p.rows[0].dec
		}
	})
	if before.Verdict != pack.VerdictIncluded {
		t.Fatalf("the knowledge graph is not attached and included: %+v", before)
	}

	c := h.openChat()
	h.sendChat(c, "Remember Attaché, please.")
	var once *button
	h.waitFor("the approval dialog", func() bool {
		h.do(func() { once = findButton(c.win.Canvas(), "Allow once") })
		return once != nil
	})
	h.do(func() { test.Tap(once) })
	h.waitText(c, "Remembered.")
	h.waitFor("the first turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	h.waitFor("the stale badge (create_entities changed the graph)", func() bool {
		var stale bool
		h.do(func() { stale = len(p.rows) == 1 && p.rows[0].kept.Stale })
		return stale
	})

	h.sendChat(c, "What is in the graph now?")
	h.waitText(c, "The graph holds Attaché now.")
	h.waitFor("the second turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	turns, err := h.st.Turns(context.Background(), h.app.sh.conv.ID)
	if err != nil || len(turns) != 2 {
		t.Fatalf("%d turns stored (%v); want 2", len(turns), err)
	}
	sent := turns[1].Context
	if len(sent.Items) != 1 || !strings.Contains(sent.System, "Attaché") || sent.Items[0].Tokens <= before.Tokens {
		t.Fatalf("the second turn sent %+v (%d tokens before); want the new, longer body of the graph", sent.Items, before.Tokens)
	}
	t.Logf("the graph cost %d tokens when attached, %d as the second turn sent it (%d of %d used)", before.Tokens, sent.Items[0].Tokens, sent.Used, sent.Budget)
	meter := fmt.Sprintf("%s / %s tokens", count(int64(sent.Used)), count(int64(sent.Budget)))
	var row *attachmentRow
	shown := func() bool {
		ok := false
		h.do(func() {
			rows := rowWidgets(p.list)
			if len(rows) != 1 || len(p.rows) != 1 {
				return
			}
			row = rows[0]
			ok = p.rows[0].dec.Tokens == sent.Items[0].Tokens && !p.rows[0].kept.Stale &&
				p.meter.text.Text == meter && strings.Contains(sent.System, attachedPart(p.preview.doc))
		})
		return ok
	}
	h.waitFor("the row, the meter, the preview and the badge to show what the second turn sent", shown)
	h.do(func() {
		if !strings.Contains(row.reason.Text, pack.Quantity(sent.Items[0].Tokens, "token")) {
			t.Errorf("the row says %q; want the %d tokens sent", row.reason.Text, sent.Items[0].Tokens)
		}
		if row.stale.Visible() {
			t.Error("the row still shows the stale badge")
		}
		if !strings.Contains(p.preview.text.Text, "Attaché") {
			t.Errorf("the preview does not show the new body:\n%s", p.preview.text.Text)
		}
		if row.diff.Disabled() {
			t.Error("Diff is not offered for the body the turn replaced")
		}
	})
}

// attachedPart is the context part of a system prompt: the next turn's
// preview carries no update note for a body the last turn already sent.
func attachedPart(system string) string {
	if i := strings.Index(system, "# Attached context"); i >= 0 {
		return system[i:]
	}
	return "\x00no attached context"
}
