package mcptest_test

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

func TestSlowReadTimesOutAndSessionSurvives(t *testing.T) {
	eachTransport(t, mcptest.ModeSlow, nil, func(t *testing.T, cs *mcp.ClientSession) {
		ctx, cancel := context.WithTimeout(testContext(t), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcptest.RawResourceURI})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("read with a 200ms deadline against a 10s delay: %v, want DeadlineExceeded", err)
		}
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("the read took %v, want it cut at the deadline", elapsed)
		}
		if _, err := cs.ListResources(testContext(t), nil); err != nil {
			t.Errorf("listing after the timed-out read: %v", err)
		}
	})
}

// TestSlowReadBlocksNothing shows over real stdio that a read waiting its
// delay holds up neither other requests nor the exit on EOF.
func TestSlowReadBlocksNothing(t *testing.T) {
	w := startWire(t, mcptest.ModeSlow, "--delay", "1h")
	w.handshake()
	w.send(`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"test://raw/doc"}}`)
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	w.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if got := w.recv(); got != `{"jsonrpc":"2.0","id":6,"result":{}}` {
		t.Errorf("got %s, want the ping's answer", got)
	}
	if code := w.exitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestDieOnReadExitsWithCode3(t *testing.T) {
	w := startWire(t, mcptest.ModeDieOnRead)
	w.handshake()
	w.send(readRequest)
	// Wait with stdin open: on EOF the server would exit 0 on its own.
	if code := exitCode(t, w.cmd); code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
}

func TestDieOnReadInProcessKillsLaterRequests(t *testing.T) {
	url := httpServer(t, mcptest.ModeDieOnRead, nil)
	if _, err := http.Post(url, "application/json", strings.NewReader(readRequest)); err == nil {
		t.Error("the read got an answer, want the connection aborted")
	}
	if _, err := http.Post(url, "application/json", strings.NewReader(initialize)); err == nil {
		t.Error("a request after the death got an answer, want the connection aborted")
	}
}

// TestOversize records how go-sdk's transports bound a reply: over stdio
// CommandTransport caps a line at mcp.DefaultMaxLineLength (16 MiB) and then
// gives the session up; over HTTP an application/json body is read whole,
// whatever its size. A host that wants a 32 MiB limit must apply it itself.
func TestOversize(t *testing.T) {
	const over = mcp.DefaultMaxLineLength + 1<<20 // 17 MiB
	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(mcptestd(t), "--mode", mcptest.ModeOversize, "--stdio", "--body-bytes", strconv.Itoa(over))
		cs := connect(t, &mcp.CommandTransport{Command: cmd}, nil)
		_, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.RawResourceURI})
		if err == nil || !strings.Contains(err.Error(), "inbound JSON-RPC frame exceeded the configured maximum line length") {
			t.Errorf("read of a 17 MiB line: %v, want go-sdk's frame limit", err)
		}
	})
	t.Run("http", func(t *testing.T) {
		url := httpServer(t, mcptest.ModeOversize, &mcptest.Options{BodyBytes: over})
		cs := connect(t, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.RawResourceURI})
		if err != nil || len(res.Contents) != 1 || len(res.Contents[0].Text) != over {
			t.Fatalf("read of a 17 MiB body: %v; want it accepted whole", err)
		}
		if text := res.Contents[0].Text; text[:64] != mcptest.OversizeFill || text[over-64:] != mcptest.OversizeFill {
			t.Errorf("the body is not OversizeFill repeated: %q...%q", text[:64], text[over-64:])
		}
	})
}

func TestStatusModesRefuseTheClient(t *testing.T) {
	for mode, want := range map[string]string{
		mcptest.ModeUnauthorized: `calling "initialize": sending "initialize": Unauthorized`,
		mcptest.ModeForbidden:    `calling "initialize": sending "initialize": Forbidden`,
	} {
		t.Run(mode, func(t *testing.T) {
			tr := &mcp.StreamableClientTransport{Endpoint: httpServer(t, mode, nil), MaxRetries: -1}
			_, err := mcp.NewClient(&mcp.Implementation{Name: "mcptest-client"}, nil).Connect(testContext(t), tr, nil)
			// go-sdk's error carries only the status text: a host that
			// classifies 401/403 must see the response itself.
			if err == nil || err.Error() != want {
				t.Errorf("connecting: %v, want %q", err, want)
			}
		})
	}
}
