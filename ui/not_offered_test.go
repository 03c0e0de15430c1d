package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/npmpeer"
)

// A server that declares no resources capability (the npm
// server-filesystem offers tools only) shows, in the resources and the
// templates tab, that it offers no resources and what it does declare,
// rather than an empty list or an error.
func TestServerWithoutResourcesEmptyState(t *testing.T) {
	entry := npmpeer.Entry(t, "server-filesystem")
	h := newHarness(t)
	files := config.ServerConfig{Name: "files", Title: "files", Command: "node", Args: []string{entry, t.TempDir()}}
	if err := h.host.AddServer(context.Background(), files); err != nil {
		t.Fatal(err)
	}
	if err := h.try(func() error { return h.app.SelectServer("files", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	r, w := h.app.picker.resources, h.app.picker.templates
	const want = "files offers no resources.\nIt declares tools only"
	if r.empty.Hidden || !strings.HasPrefix(r.empty.Text, want) || len(r.all) != 0 {
		t.Errorf("resources tab: hidden %v, %q; want it to start with %q", r.empty.Hidden, r.empty.Text, want)
	}
	if w.empty.Hidden || !strings.HasPrefix(w.empty.Text, want) || !w.preview.Hidden || !w.refusal.Hidden || !w.readBtn.Disabled() {
		t.Errorf("templates tab: hidden %v, %q (preview hidden %v, refusal hidden %v); want only %q",
			w.empty.Hidden, w.empty.Text, w.preview.Hidden, w.refusal.Hidden, want)
	}
	if msg := h.app.status.Text; msg != "Browsing files as default" {
		t.Errorf("status line %q; want no failure reported", msg)
	}
}
