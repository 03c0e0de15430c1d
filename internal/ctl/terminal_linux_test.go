//go:build linux

package ctl

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// pty is a pseudo-terminal: the test plays the terminal on master, and
// attachectl gets slave as a real terminal. shown collects everything the
// terminal displays (program output and the tty's own echo).
type pty struct {
	master, slave *os.File
	shown         bytes.Buffer
	done          chan struct{}
}

func openPTY(t *testing.T) *pty {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	var n int
	rc, err := m.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	rc.Control(func(fd uintptr) { // Control, not Fd: the master stays non-blocking
		if err = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); err == nil {
			n, err = unix.IoctlGetInt(int(fd), unix.TIOCGPTN)
		}
	})
	if err != nil {
		t.Fatalf("unlocking the pty: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &pty{master: m, slave: s, done: make(chan struct{})}
	go func() { io.Copy(&p.shown, m); close(p.done) }() // ends with EIO once no one holds the slave
	t.Cleanup(func() { s.Close(); m.Close() })
	return p
}

// screen closes the test's end of the slave, once the program has exited,
// and returns all the terminal showed.
func (p *pty) screen(t *testing.T) string {
	t.Helper()
	p.slave.Close()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal never saw its end")
	}
	return p.shown.String()
}

// echoOff waits until the program has turned the terminal's echo off.
func (p *pty) echoOff(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		tio, err := unix.IoctlGetTermios(int(p.slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("attachectl never turned echo off to read the password")
		}
		time.Sleep(10 * time.Millisecond) // polling a terminal's mode: nothing to wait on
	}
}

// TestReadToATerminalEscapesTheBody: a body printed to a terminal cannot
// drive it; its lines are kept.
func TestReadToATerminalEscapesTheBody(t *testing.T) {
	stdio := testbin.Build(t, "internal/mcptest/mcptestd") + " --mode " + mcptest.ModeHostile + " --stdio"
	p := openPTY(t)
	cmd := exec.Command(binPath, "read", "--stdio", stdio, mcptest.HostileURI)
	cmd.Env = append(os.Environ(), privateEnv(t)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = p.slave, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	shown := p.screen(t)
	if strings.ContainsAny(shown, "\x1b\u009b") || !strings.Contains(shown, `line one \x1b]0;pwned\x07`) ||
		!strings.Contains(shown, `line two \x1b[2J\u009b2J`) || !strings.Contains(shown, "line three") {
		t.Errorf("the terminal showed %q; want the escapes as text, lines kept", shown)
	}
}

// vscodeImport writes a config importing a VS Code mcp.json whose server
// "tg" (threengram over stdio) takes its tenant from a password input.
func vscodeImport(t *testing.T) []string {
	env := privateEnv(t)
	dir := t.TempDir()
	mcpJSON := filepath.Join(dir, "mcp.json")
	os.WriteFile(mcpJSON, []byte(fmt.Sprintf(`{
		"inputs": [{"type": "promptString", "id": "tenant", "description": "Tenant", "password": true}],
		"servers": {"tg": {"type": "stdio", "command": %q, "args": ["--db", %q, "--seed", "--stdio"],
		                   "env": {"THREENGRAM_TENANT": "${input:tenant}"}}}
	}`, testbin.Build(t, "cmd/threengram"), filepath.Join(dir, "tg.db"))), 0o600)
	cfg := strings.TrimPrefix(env[0], "ATTACHE_CONFIG=")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"servers": [], "imports": [{"kind": "vscode", "path": %q}]}`, mcpJSON)), 0o600)
	return env
}

// TestPasswordInputNotEchoed types a password input on a real terminal:
// attachectl reads it with echo off, so the terminal never shows it.
func TestPasswordInputNotEchoed(t *testing.T) {
	env := vscodeImport(t)
	p := openPTY(t)
	cmd := exec.Command(binPath, "templates", "tg")
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.echoOff(t)
	if _, err := p.master.Write([]byte("acme\n")); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	shown := p.screen(t)
	if err != nil || !strings.Contains(stdout.String(), threengram.MemoryTemplate) {
		t.Fatalf("templates with the typed tenant: %v\nstdout %q\nstderr %q", err, stdout.String(), stderr.String())
	}
	if strings.Contains(shown, "acme") {
		t.Errorf("the terminal echoed the password: %q", shown)
	}
	if !strings.Contains(stderr.String(), "tg needs tenant (Tenant): ") {
		t.Errorf("no prompt on stderr: %q", stderr.String())
	}
}

// TestInputFromAPipe: with stdin not a terminal, the value is read as a
// line, as a script would give it.
func TestInputFromAPipe(t *testing.T) {
	env := vscodeImport(t)
	cmd := exec.Command(binPath, "templates", "tg")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader("acme\n")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), threengram.MemoryTemplate) {
		t.Errorf("templates with the tenant on a pipe: %v %q", err, out)
	}
}
