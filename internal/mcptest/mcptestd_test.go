package mcptest_test

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// startHTTP runs mcptestd --http 127.0.0.1:0 and returns the process and
// the endpoint it prints on its first line.
func startHTTP(t *testing.T, mode string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(mcptestd(t), "--mode", mode, "--http", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	url := strings.TrimSpace(line)
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("first line %q, %v; want http://127.0.0.1:PORT/mcp", line, err)
	}
	return cmd, url
}

// exitCode waits for cmd and returns its exit code.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("waiting for mcptestd: %v", err)
		}
		return cmd.ProcessState.ExitCode()
	case <-testContext(t).Done():
		t.Fatal("mcptestd did not exit")
	}
	return -1
}

func TestMcptestdOverHTTPExitsOnSIGTERM(t *testing.T) {
	cmd, url := startHTTP(t, mcptest.ModeV2025Nov)
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if v := cs.InitializeResult().ProtocolVersion; v != mcptest.Version2025Nov {
		t.Errorf("negotiated %s over mcptestd's HTTP, want %s", v, mcptest.Version2025Nov)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
}

func TestMcptestdOverHTTPDiesOnRead(t *testing.T) {
	cmd, url := startHTTP(t, mcptest.ModeDieOnRead)
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if _, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.RawResourceURI}); err == nil {
		t.Error("read succeeded, want the server dead")
	}
	if code := exitCode(t, cmd); code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
	_, err := cs.ListResources(testContext(t), nil)
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("listing from a dead server: %v, want connection refused", err)
	}
}

func TestMcptestdOverStdioExitsOnEOFAndSIGTERM(t *testing.T) {
	for _, mode := range []string{mcptest.ModeV2026, mcptest.ModePaged, mcptest.ModeImage, mcptest.ModeEmptyContents} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			// A long TerminateDuration: Close must see the process exit on EOF.
			tr := &mcp.CommandTransport{Command: exec.Command(mcptestd(t), "--mode", mode, "--stdio"), TerminateDuration: time.Hour}
			cs := connect(t, tr, nil)
			closed := make(chan error, 1)
			go func() { closed <- cs.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Errorf("closing (stdin EOF): %v, want exit code 0", err)
				}
			case <-testContext(t).Done():
				t.Fatal("mcptestd did not exit when stdin closed")
			}
			w := startWire(t, mode)
			w.handshake() // an answer: the signal handler is in place
			if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if code := exitCode(t, w.cmd); code != 0 {
				t.Errorf("exit code %d after SIGTERM, want 0", code)
			}
		})
	}
}

func TestMcptestdUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--mode", "nonesuch", "--stdio"},
		{"--mode", mcptest.ModeUnauthorized, "--stdio"},
		{"--mode", mcptest.ModeSpawner, "--http", "127.0.0.1:0"},
		{"--mode", mcptest.ModeV2026},
		{"--mode", mcptest.ModeV2026, "--stdio", "--http", "127.0.0.1:0"},
		{"--no-such-flag"},
	} {
		out, err := exec.Command(mcptestd(t), args...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("mcptestd %v: %v, %s; want exit code 2", args, err, out)
		}
	}
}
