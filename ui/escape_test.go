package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// Escape cancels a read in progress, whether nothing has the focus or a
// control does (the template's field the read was started from, a
// button).
func TestEscapeCancelsARead(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = []config.ServerConfig{{Name: "slow", Title: "slow", Source: "builtin",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"), Args: []string{"--mode", mcptest.ModeSlow, "--delay", "10s", "--stdio"}}}
	h.open()
	slow, err := h.host.Conn("slow", "")
	if err != nil {
		t.Fatal(err)
	}
	in, c := h.app.inspector, h.app.Window().Canvas()
	for _, focus := range []struct {
		name string
		on   func() fyne.Focusable
	}{
		{"nothing", func() fyne.Focusable { return nil }},
		{"the template's field", func() fyne.Focusable { return h.app.picker.templates.fields["id"] }},
		{"a button", func() fyne.Focusable { return findButton(c, "Add") }},
	} {
		h.do(func() { in.read(readRequest{conn: slow, uri: "test://slow/1"}) })
		h.waitFor("the slow read to start", func() bool { var r bool; h.do(func() { r = in.busy.running() }); return r })
		h.do(func() {
			if f := focus.on(); f != nil {
				c.Focus(f)
			} else {
				c.Unfocus()
			}
		})
		h.key(fyne.KeyEscape)
		h.do(func() {
			if body := texts(in.body); in.busy.running() || in.progress.Visible() || !strings.Contains(body, "was canceled") {
				t.Errorf("Escape with the focus on %s: reading %v, the body says:\n%s", focus.name, in.busy.running(), body)
			}
		})
	}
}
