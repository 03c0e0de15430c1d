package mcptest_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

func TestEveryModeIsInTheDocTable(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range mcptest.ModeNames() {
		if !strings.Contains(string(doc), "//\t| "+mode+" ") {
			t.Errorf("mode %s has no row in the package doc's table", mode)
		}
	}
}

func TestModesRefuseTheWrongTransport(t *testing.T) {
	if _, err := mcptest.Handler(mcptest.ModeSpawner, nil); !errors.Is(err, mcptest.ErrUnsupportedTransport) {
		t.Errorf("Handler(spawner): %v, want ErrUnsupportedTransport", err)
	}
	if _, err := mcptest.Handler("nonesuch", nil); !errors.Is(err, mcptest.ErrUnknownMode) {
		t.Errorf("Handler(nonesuch): %v, want ErrUnknownMode", err)
	}
	in, out := io.NopCloser(strings.NewReader("")), nopWriteCloser{io.Discard}
	err := mcptest.ServeStdio(t.Context(), mcptest.ModeUnauthorized, in, out, nil)
	if !errors.Is(err, mcptest.ErrUnsupportedTransport) {
		t.Errorf("ServeStdio(unauthorized): %v, want ErrUnsupportedTransport", err)
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// serveInProcess runs ServeStdio on pipes and connects a go-sdk client; it
// returns the session and what ServeStdio returned, once it has.
func serveInProcess(t *testing.T, mode string, opts *mcptest.Options) (*mcp.ClientSession, <-chan error) {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- mcptest.ServeStdio(context.Background(), mode, serverIn, serverOut, opts) }()
	cs := connect(t, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	return cs, served
}

func TestServeStdioInProcess(t *testing.T) {
	cs, served := serveInProcess(t, mcptest.ModeV2026, nil)
	if v := cs.InitializeResult().ProtocolVersion; v != mcptest.Version2026 {
		t.Errorf("negotiated %s in-process, want %s", v, mcptest.Version2026)
	}
	cs.Close()
	if err := <-served; err != nil {
		t.Errorf("ServeStdio after the client closed: %v, want nil", err)
	}
}

func TestDieOnReadInProcessStopsServeStdio(t *testing.T) {
	cs, served := serveInProcess(t, mcptest.ModeDieOnRead, nil)
	if _, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.RawResourceURI}); err == nil {
		t.Error("read succeeded, want the server dead")
	}
	if err := <-served; !errors.Is(err, mcptest.ErrDied) {
		t.Errorf("ServeStdio returned %v, want ErrDied", err)
	}
}
