package mcptest_test

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// wire drives mcptestd over stdio by hand, line by line, so that a test sees
// exactly the bytes the server writes.
type wire struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// startWire starts mcptestd --stdio in the mode.
func startWire(t *testing.T, mode string, args ...string) *wire {
	t.Helper()
	cmd := exec.Command(mcptestd(t), append([]string{"--mode", mode, "--stdio"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &wire{t: t, cmd: cmd, in: in, lines: make(chan string, 64)}
	go w.read(out)
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return w
}

// read sends every line of out, without its newline, and closes lines at EOF.
func (w *wire) read(out io.Reader) {
	defer close(w.lines)
	r := bufio.NewReader(out)
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			w.lines <- strings.TrimSuffix(line, "\n")
		}
		if err != nil {
			return
		}
	}
}

// send writes one line.
func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		w.t.Fatalf("sending %s: %v", line, err)
	}
}

// recv returns the next line the server writes; it fails the test at EOF
// or when the test's deadline passes.
func (w *wire) recv() string {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			w.t.Fatal("the server closed stdout")
		}
		return line
	case <-testContext(w.t).Done():
		w.t.Fatal("no line from the server before the deadline")
	}
	return ""
}

// exitCode closes stdin and returns the exit code of the process.
func (w *wire) exitCode() int {
	w.t.Helper()
	w.in.Close()
	return exitCode(w.t, w.cmd)
}

// initialize is an initialize request as a go-sdk client sends it.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`

// handshake initializes the session and checks the answer.
func (w *wire) handshake() {
	w.t.Helper()
	w.send(initialize)
	if got := w.recv(); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		w.t.Fatalf("initialize answered %s", got)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}
