package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// A stdio server that fails to connect shows its last 20 lines of stderr
// in the error view's detail: the server's own account of what went wrong.
func TestErrorViewShowsServerStderr(t *testing.T) {
	test.NewTempApp(t)
	h := hostcore.NewHost(nil, nil)
	t.Cleanup(func() { h.Close() })
	c, err := h.ConnFor(config.ServerConfig{Name: "garbage", Command: testbin.Build(t, "internal/mcptest/mcptestd"),
		Args: []string{"--mode", mcptest.ModeNotJSONInit, "--stdio"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	err = c.Connect(context.Background())
	if err == nil {
		t.Fatal("connected to a server that answers initialize with garbage")
	}
	view := texts(errorView(err))
	first, last := mcptest.InitStderrLines-19, mcptest.InitStderrLines
	for _, want := range []string{"Protocol", "which is not JSON-RPC", "The server's stderr, last 20 lines:",
		fmt.Sprintf("stderr line %d\n", first), fmt.Sprintf("stderr line %d", last)} {
		if !strings.Contains(view, want) {
			t.Errorf("the error view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, fmt.Sprintf("stderr line %d\n", first-1)) {
		t.Errorf("the error view shows more than the last 20 lines:\n%s", view)
	}
}
