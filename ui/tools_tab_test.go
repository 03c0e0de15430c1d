package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/toolform"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/npmpeer"
)

// The tools tab is tested against the npm server-everything and
// server-memory over real stdio, in the window, through the consent gate.

// memoryServer is the npm server-memory, keeping its graph in file.
func memoryServer(t *testing.T, file string) config.ServerConfig {
	return config.ServerConfig{Name: "memory", Title: "memory", Command: "node",
		Args: []string{npmpeer.Entry(t, "server-memory")}, Env: map[string]string{"MEMORY_FILE_PATH": file}}
}

// browse adds sc (once) and makes it the server the picker browses.
func (h *harness) browse(sc config.ServerConfig) {
	h.t.Helper()
	if _, err := h.host.Conn(sc.Name, ""); err != nil {
		if err := h.host.AddServer(context.Background(), sc); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := h.try(func() error { return h.app.SelectServer(sc.Name, "") }); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
}

// chooseTool shows name's form in the Tools tab.
func (h *harness) chooseTool(name string) *toolsTab {
	h.t.Helper()
	if err := h.try(func() error { return h.app.ChooseTool(name) }); err != nil {
		h.t.Fatal(err)
	}
	return h.app.picker.tools
}

// callTool taps Call and waits for the result, whose facts it returns.
func (h *harness) callTool() string {
	h.t.Helper()
	if err := h.try(h.app.CallTool); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
	var facts string
	h.do(func() { facts = h.app.results.facts.Text })
	return facts
}

// resultText is every text the tool result pane shows.
func (h *harness) resultText() string {
	var s string
	h.do(func() { s = texts(h.app.lower.Objects[1]) })
	return s
}

// server-everything's toggle-subscriber-updates, called from the tools
// tab, runs on the app's own connection: the server's updates reach the
// app's subscription of an attached resource, whose row turns stale. (The
// inspector's own Subscribe is another change's; this is the app's
// existing subscription, the attachments' watcher.)
func TestToolsTabCallReachesTheAppsSubscriptions(t *testing.T) {
	h := newHarness(t)
	h.browse(everythingServer(t))
	const doc = "demo://resource/static/document/architecture.md"
	if err := h.try(func() error { return h.app.SelectResource(doc) }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach)
	h.settle()
	p := h.app.attachments
	h.waitFor("the attachment to be subscribed", func() bool {
		var ok bool
		h.do(func() { ok = len(p.rows) == 1 && p.rows[0].watch.Mode == hostcore.WatchSubscribed })
		return ok
	})
	tab := h.chooseTool("toggle-subscriber-updates")
	h.do(func() {
		if !strings.Contains(tab.hints.Text, "Not destructive") || !strings.Contains(tab.hints.Text, "Closed world") {
			t.Errorf("the hints say:\n%s", tab.hints.Text)
		}
	})
	facts := h.callTool()
	if !strings.Contains(facts, "asked for by the person") {
		t.Errorf("the result's facts: %q", facts)
	}
	if got := h.resultText(); !strings.Contains(got, "Started simulated resource updated notifications") {
		t.Errorf("the result pane:\n%s", got)
	}
	h.waitFor("the stale badge", func() bool {
		var stale bool
		h.do(func() { stale = len(p.rows) == 1 && p.rows[0].watch.Stale })
		return stale
	})
	h.callTool() // stops the updates, for the server's sake
}

// server-memory's create_entities, with its form filled in (an array of
// objects, each with an array of strings), adds the entity to the
// knowledge graph, read back in the inspector; the JSON tab follows the
// form. A destructive tool (delete_entities) asks first: Cancel calls
// nothing, Call deletes.
func TestToolsTabFormCreatesEntities(t *testing.T) {
	h := newHarness(t)
	h.browse(memoryServer(t, filepath.Join(t.TempDir(), "graph.jsonl")))
	tab := h.chooseTool("create_entities")
	form := tab.args.form
	h.do(func() { test.Tap(form.widgets["entities+"].(*button)) })
	h.do(func() {
		test.Type(form.widgets["entities[0].name"].(*keyEntry), "Ada Lovelace")
		test.Type(form.widgets["entities[0].entityType"].(*keyEntry), "person")
		test.Tap(form.widgets["entities[0].observations+"].(*button))
	})
	h.do(func() {
		test.Type(form.widgets["entities[0].observations[0]"].(*keyEntry), "wrote the first program")
		want := `"observations": [` + "\n" + `        "wrote the first program"`
		if !strings.Contains(tab.args.json.Text, want) || !strings.Contains(tab.args.json.Text, `"name": "Ada Lovelace"`) {
			t.Errorf("the JSON tab:\n%s", tab.args.json.Text)
		}
	})
	if facts := h.callTool(); !strings.Contains(facts, "The tool answered") {
		t.Fatalf("the result: %q\n%s", facts, h.resultText())
	}
	graph := h.readGraph()
	if !strings.Contains(graph, "Ada Lovelace") || !strings.Contains(graph, "wrote the first program") {
		t.Fatalf("the knowledge graph after create_entities:\n%s", graph)
	}
	h.checkConsoleCall("create_entities", "Ada Lovelace")

	tab = h.chooseTool("delete_entities")
	h.do(func() { h.app.SetToolJSON(`{"entityNames": ["Ada Lovelace"]}`) })
	h.answerConfirm("Cancel")
	if !strings.Contains(h.resultText(), "Not called: not confirmed") || !strings.Contains(h.readGraph(), "Ada Lovelace") {
		t.Errorf("after Cancel: %s", h.resultText())
	}
	h.chooseTool("delete_entities")
	h.do(func() { h.app.SetToolJSON(`{"entityNames": ["Ada Lovelace"]}`) })
	h.answerConfirm("Call")
	if graph := h.readGraph(); strings.Contains(graph, "Ada Lovelace") {
		t.Errorf("after Call, the graph still holds the entity:\n%s", graph)
	}
}

// answerConfirm taps Call, waits for the confirmation of a destructive
// call, taps answer in it and waits for the outcome.
func (h *harness) answerConfirm(answer string) {
	h.t.Helper()
	if err := h.try(h.app.CallTool); err != nil {
		h.t.Fatal(err)
	}
	var b *button
	h.waitFor("the confirmation", func() bool {
		h.do(func() { b = overlayButton(h.app.Window().Canvas(), answer) })
		return b != nil
	})
	h.do(func() { test.Tap(b) })
	h.settle()
}

// overlayButton is the button labelled text in a dialog over cv.
func overlayButton(cv fyne.Canvas, text string) *button {
	for _, o := range cv.Overlays().List() {
		for _, obj := range test.LaidOutObjects(o) {
			if b, ok := obj.(*button); ok && b.Text == text && b.Visible() {
				return b
			}
		}
	}
	return nil
}

// readGraph reads memory://knowledge-graph in the inspector, bypassing
// the cache, and returns its text.
func (h *harness) readGraph() string {
	h.t.Helper()
	h.do(func() {
		h.app.inspector.read(readRequest{conn: h.app.sh.conn, uri: "memory://knowledge-graph", mode: hostcore.ReadBypass})
	})
	h.settle()
	var text string
	h.do(func() { text, _ = h.app.inspector.bodyViewer().Text() })
	return text
}

// An embedded resource in a tool result (server-everything's
// get-resource-reference) shows as a resource and is attached in one
// click, by its uri; so is a resource link (get-resource-links).
func TestToolResultResourcesAttach(t *testing.T) {
	h := newHarness(t)
	h.browse(everythingServer(t))
	h.chooseTool("get-resource-reference")
	h.callTool()
	const embedded = "demo://resource/dynamic/text/1"
	res := h.app.results
	h.do(func() {
		if len(res.content) != 3 || res.content[1].ResourceURI() != embedded {
			t.Fatalf("the result's entries: %+v", res.content)
		}
		h.app.ShowToolEntry(1)
	})
	got := h.resultText()
	for _, want := range []string{"2. Embedded resource · " + embedded, "text/plain · text, ", "Resource 1: This is a plaintext resource"} {
		if !strings.Contains(got, want) {
			t.Errorf("the result pane lacks %q:\n%s", want, got)
		}
	}
	h.do(func() { test.Tap(findButton(h.app.Window().Canvas(), "Attach")) })
	h.settle()
	h.chooseTool("get-resource-links")
	h.do(func() { h.app.SetToolJSON(`{"count": 2}`) })
	h.callTool()
	h.do(func() { h.app.ShowToolEntry(2) }) // Text Resource 2
	h.do(func() { test.Tap(findButton(h.app.Window().Canvas(), "Attach")) })
	h.settle()
	var uris []string
	h.do(func() {
		for _, r := range h.app.attachments.rows {
			uris = append(uris, r.att.URI+" "+string(r.att.Origin))
		}
	})
	if strings.Join(uris, ",") != embedded+" tool,demo://resource/dynamic/text/2 tool" && strings.Join(uris, ",") != "demo://resource/dynamic/text/2 tool,"+embedded+" tool" {
		t.Errorf("attached: %v", uris)
	}
}

// The form keeps to the JSON tab where it can, and says when it cannot:
// Call then sends the JSON as written.
func TestToolArgsJSONSync(t *testing.T) {
	h := newHarness(t)
	h.browse(everythingServer(t))
	tab := h.chooseTool("get-resource-reference")
	h.do(func() {
		h.app.SetToolJSON(`{"resourceType": "Blob", "resourceId": 4}`)
		if v := tab.args.value; propText(v, "resourceId") != "4" || !tab.args.fit.Hidden {
			t.Errorf("the form after the JSON: %+v, fit note %q", v.Props, tab.args.fit.Text)
		}
		h.app.SetToolJSON(`{"resourceId": 4, "extra": true}`)
		if tab.args.fit.Hidden || !strings.Contains(tab.args.fit.Text, `the property "extra", which the form does not have`) || tab.callBtn.Disabled() {
			t.Errorf("a JSON the form cannot show: fit %q, Call disabled %v", tab.args.fit.Text, tab.callBtn.Disabled())
		}
		h.app.SetToolJSON(`[1]`)
		if !tab.callBtn.Disabled() || tab.args.problems.Text != "the JSON tab does not hold a JSON object" {
			t.Errorf("a JSON that is no object: Call disabled %v, %q", tab.callBtn.Disabled(), tab.args.problems.Text)
		}
	})
}

// propText is the text of the property name of an object's value.
func propText(v *toolform.Value, name string) string {
	for _, p := range v.Props {
		if p.Field.Name == name {
			return p.Text
		}
	}
	return "(no such property)"
}

// Ctrl+T brings the Tools tab to the front with the keyboard in its list.
func TestToolsTabKeyboard(t *testing.T) {
	h := newHarness(t)
	h.shortcut(shortcutTools)
	h.do(func() {
		if h.app.picker.current() != TabTools {
			t.Errorf("tab %d in front; want the tools", h.app.picker.current())
		}
		if f := h.app.Window().Canvas().Focused(); f != fyne.Focusable(h.app.picker.tools.list) {
			t.Errorf("focused %T; want the tool list", f)
		}
	})
}

// checkConsoleCall opens the console on the connection in use and looks
// for the tools/call of tool, with want in its params, and its response.
func (h *harness) checkConsoleCall(tool, want string) {
	h.t.Helper()
	h.do(h.app.ShowConsole)
	c := h.app.console
	var req, resp bool
	h.do(func() {
		for _, e := range c.entries {
			if e.Method != "tools/call" {
				continue
			}
			raw := string(e.Raw)
			req = req || e.Kind == wire.KindRequest && strings.Contains(raw, `"name":"`+tool+`"`) && strings.Contains(raw, want)
			resp = resp || e.Kind == wire.KindResponse
		}
	})
	if !req || !resp {
		h.t.Errorf("the console holds the tools/call of %s: request %v, response %v (%d messages)", tool, req, resp, len(c.entries))
	}
}
