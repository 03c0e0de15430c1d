// Package npmpeer finds and starts the npm MCP servers that tests run
// against (installed into .peers/ by scripts/lib.sh ensure_peers, pinned by
// scripts/peers/package-lock.json). Without them a test is skipped on a
// developer's machine and fails in CI, where the test script installs them.
package npmpeer

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Entry returns the path of the entry point of the npm package
// @modelcontextprotocol/PKG under .peers/, skipping (or, in CI, failing)
// the test when it or node is missing.
func Entry(t testing.TB, pkg string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", ".peers", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("npm peer %s is not installed (scripts/test.sh installs it): %v", pkg, err)
		}
		t.Skipf("npm peer %s not installed; run scripts/test.sh once", pkg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return p
}

// startTimeout bounds the wait for a server to say it listens.
const startTimeout = 30 * time.Second

// EverythingSSE starts server-everything in its legacy HTTP+SSE mode on a
// free loopback port and returns its endpoint, http://127.0.0.1:PORT/sse.
// The server is stopped (by its PID) when the test ends.
func EverythingSSE(t testing.TB) string {
	t.Helper()
	entry := Entry(t, "server-everything")
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", entry, "sse")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StderrPipe() // it says where it listens on stderr
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "running on port") {
				ready <- nil
				for sc.Scan() { // keep draining, so the server never blocks on stderr
				}
				return
			}
		}
		ready <- fmt.Errorf("server-everything sse exited before listening: %v", sc.Err())
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(startTimeout):
		t.Fatalf("server-everything sse did not listen within %s", startTimeout)
	}
	return fmt.Sprintf("http://127.0.0.1:%d/sse", port)
}

// freePort returns a loopback port nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ts2Script is the 2026-07-28 test server written with the official
// TypeScript SDK 2.x (internal/mcptest/testdata/ts2/server.mjs), which
// imports the SDK from .peers/.
func ts2Script(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	for _, f := range []string{"server/dist/index.mjs", "node/dist/index.mjs"} {
		if _, err := os.Stat(filepath.Join(root, ".peers", "node_modules", "@modelcontextprotocol", f)); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the TypeScript SDK 2.x is not installed (scripts/test.sh installs it): %v", err)
			}
			t.Skipf("the TypeScript SDK 2.x is not installed; run scripts/test.sh once")
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return filepath.Join(root, "internal", "mcptest", "testdata", "ts2", "server.mjs")
}

// TS2Stdio returns the command line of the TypeScript SDK 2.x test server
// over stdio.
func TS2Stdio(t testing.TB) (command string, args []string) {
	return "node", []string{ts2Script(t), "stdio"}
}

// TS2 starts the TypeScript SDK 2.x test server over Streamable HTTP on a
// free loopback port and returns its endpoint, http://127.0.0.1:PORT/mcp.
// The server is stopped (by its PID) when the test ends.
func TS2(t testing.TB) string {
	t.Helper()
	cmd := exec.Command("node", ts2Script(t), "http")
	cmd.Env = append(os.Environ(), "PORT=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
				ready <- url
				for sc.Scan() {
				}
				return
			}
		}
		close(ready)
	}()
	select {
	case url, ok := <-ready:
		if !ok {
			t.Fatal("the TypeScript SDK 2.x test server exited before listening")
		}
		return url
	case <-time.After(startTimeout):
		t.Fatalf("the TypeScript SDK 2.x test server did not listen within %s", startTimeout)
	}
	return ""
}
