package mcptest_test

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// TestSpawnerLeavesItsChildToTheProcessGroup shows what the host must do:
// closing the session ends the server but not its child; killing the
// process group ends both.
func TestSpawnerLeavesItsChildToTheProcessGroup(t *testing.T) {
	cmd := exec.Command(mcptestd(t), "--mode", mcptest.ModeSpawner, "--stdio")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cs := connect(t, &mcp.CommandTransport{Command: cmd}, nil)
	text := readOne(t, cs, mcptest.ChildPIDURI).Text
	pid, err := strconv.Atoi(text)
	if err != nil {
		t.Fatalf("child pid resource %q: %v", text, err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	eventually(t, "child-pid line on stderr", func() bool { return strings.Contains(stderr.String(), "child-pid="+text+"\n") })
	if !alive(pid) {
		t.Fatalf("child %d is not running", pid)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v", err)
	}
	if !alive(pid) {
		t.Fatalf("child %d died with the server; the mode must leave it running", pid)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing the process group: %v", err)
	}
	eventually(t, "child gone after the group kill", func() bool { return !alive(pid) })
}

// alive reports whether pid is a running process: a zombie, which waits
// only to be reaped, counts as gone.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return os.IsNotExist(err) == false && syscall.Kill(pid, 0) == nil
	}
	// The state follows the parenthesised command name.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	return !bytes.HasPrefix(bytes.TrimSpace(rest), []byte("Z"))
}

// eventually polls cond until it holds or the test's deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx := testContext(t)
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and many readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
