package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/testbin"
)

// card returns the servers panel's card of the named server.
func (h *harness) card(name string) *serverCard {
	h.t.Helper()
	for _, c := range h.app.servers.cards {
		if c.sc.Name == name {
			return c
		}
	}
	h.t.Fatalf("no card for server %q", name)
	return nil
}

// Choosing another account switches the connection the reads go through,
// and with it the cache partition: acme's cached memory is not served to
// globex, for whom it does not exist.
func TestSwitchAccount(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m6", 1)[0]
	in := h.app.inspector
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	if !strings.HasPrefix(in.badge.Text, "MISS · private · account acme") {
		t.Fatalf("acme's first read: %q", in.badge.Text)
	}

	h.do(func() { h.card(hostcore.DemoServerName).accounts.SetSelected("globex") }) // a tap on the radio
	h.settle()
	if got := h.app.sh.conn.Account.Name; got != "globex" {
		t.Fatalf("browsing as %q after choosing globex", got)
	}
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	if in.badge.Text != "FAILED · not found" {
		t.Errorf("globex reading acme's memory: %q, want not found (never acme's cached body)", in.badge.Text)
	}

	h.do(func() { h.card(hostcore.DemoServerName).accounts.SetSelected("acme") })
	h.settle()
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	if !strings.HasPrefix(in.badge.Text, "HIT · private · account acme") {
		t.Errorf("acme's second read: %q, want a hit", in.badge.Text)
	}
	assertMarkup(t, "servers.xml", h.app.servers.root)
}

// A server added through the form is saved to the config and shown; one
// that names no way to reach it is refused in the form; removing asks
// first.
func TestAddAndRemoveServer(t *testing.T) {
	h := newHarness(t)
	p := h.app.servers
	h.do(func() { p.add() })
	f := p.form
	h.do(func() { test.Type(f.name, "pictures") })
	h.do(func() { test.Tap(f.save) })
	if f.problem.Hidden || !strings.Contains(f.problem.Text, "exactly one of command") {
		t.Errorf("saving a server with no command or URL: problem %q", f.problem.Text)
	}
	h.do(func() { test.Type(f.command, testbin.Build(t, "internal/mcptest/mcptestd")+" --mode image --stdio") })
	h.do(func() { test.Type(f.accounts, "me: TOKEN=secret") })
	h.do(func() { test.Tap(f.save) })
	h.settle()

	saved := readConfig(t, filepath.Join(h.dir, "config.json"))
	if len(saved.Servers) != 1 || saved.Servers[0].Name != "pictures" ||
		strings.Join(saved.Servers[0].Args, " ") != "--mode image --stdio" || saved.Servers[0].Accounts[0].Env["TOKEN"] != "secret" {
		t.Fatalf("saved config = %+v", saved.Servers)
	}
	c := h.card("pictures")
	h.do(func() { c.accounts.SetSelected("me") })
	h.settle()
	if got := len(h.app.picker.resources.all); got != 2 {
		t.Errorf("the added server lists %d resources, want 2", got)
	}

	h.do(func() { p.remove(c.sc) })
	tapDialogButton(t, h, "Yes")
	h.settle()
	if saved := readConfig(t, filepath.Join(h.dir, "config.json")); len(saved.Servers) != 0 {
		t.Errorf("after Remove the config holds %+v", saved.Servers)
	}
}

// Importing a Claude Desktop config adds its servers, marked as imported,
// and records the import in the config.
func TestImportClaudeDesktop(t *testing.T) {
	h := newHarness(t)
	path := filepath.Join(h.dir, "claude_desktop_config.json")
	cfg := `{"mcpServers": {"pics": {"command": "` + testbin.Build(t, "internal/mcptest/mcptestd") + `", "args": ["--mode", "image", "--stdio"]}}}`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	h.do(func() { h.app.servers.importFile("claude-desktop", path) }) // what the file dialog hands over
	h.settle()
	c := h.card("pics")
	if !strings.HasPrefix(c.source.Text, "imported from claude_desktop_config.json") {
		t.Errorf("the imported server's card says %q", c.source.Text)
	}
	saved := readConfig(t, filepath.Join(h.dir, "config.json"))
	if len(saved.Imports) != 1 || saved.Imports[0].Path != path {
		t.Errorf("saved imports = %+v", saved.Imports)
	}
}

func readConfig(t *testing.T, path string) *config.Config {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c config.Config
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// tapDialogButton taps the button labelled text in the dialog on top.
func tapDialogButton(t *testing.T, h *harness, text string) {
	t.Helper()
	top := h.app.Window().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog is open")
	}
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*button); ok && b.Text == text {
			h.do(func() { test.Tap(b) })
			return
		}
	}
	t.Fatalf("the dialog has no %q button", text)
}
