package ctl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// stubborn is a stdio server that ignores EOF, SIGTERM, SIGHUP and SIGINT,
// never answers, and has a child that ignores them too; it writes its pid
// and its child's to pidFile.
func stubborn(pidFile string) string {
	return fmt.Sprintf(`sh -c 'trap "" TERM HUP INT; sleep 300 & echo "$$ $!" > %s; wait'`, pidFile)
}

// mcptestdHTTP runs mcptestd over loopback HTTP and returns its endpoint.
func mcptestdHTTP(t *testing.T, mode string) string {
	t.Helper()
	cmd := exec.Command(testbin.Build(t, "internal/mcptest/mcptestd"), "--mode", mode, "--http", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("mcptestd --http printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestTimeoutIsTheWholeBudget: with a server that never answers, the
// command ends within 10% of --timeout, whether the connect or the read
// hangs, over stdio or HTTP, and however stubborn the server is at exit.
func TestTimeoutIsTheWholeBudget(t *testing.T) {
	mcptestd := testbin.Build(t, "internal/mcptest/mcptestd")
	const timeout = 2 * time.Second
	for _, tt := range []struct {
		name   string
		server []string
	}{
		{"slow read/stdio", []string{"--stdio", mcptestd + " --mode " + mcptest.ModeSlow + " --stdio --delay 60s"}},
		{"slow read/http", []string{"--url", mcptestdHTTP(t, mcptest.ModeSlow)}},
		{"no handshake/stdio", []string{"--stdio", stubborn(filepath.Join(t.TempDir(), "pids"))}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r := ctl(t, privateEnv(t), append([]string{"read", mcptest.RawResourceURI, "--timeout", timeout.String()}, tt.server...)...)
			elapsed := time.Since(start)
			t.Logf("--timeout %s: ended after %s", timeout, elapsed.Round(time.Millisecond))
			if r.code != exitTransport || !strings.Contains(r.stderr, "did not answer in time") {
				t.Errorf("exit %d, stderr %q; want exit 6 and a timeout", r.code, r.stderr)
			}
			if elapsed < timeout*9/10 || elapsed > timeout*11/10 {
				t.Errorf("the command took %s; want %s ± 10%%", elapsed, timeout)
			}
		})
	}
}

func TestTimeoutMustBePositive(t *testing.T) {
	for _, v := range []string{"0", "-1s"} {
		r := ctl(t, privateEnv(t), "servers", "--timeout", v)
		if r.code != exitUsage || !strings.Contains(r.stderr, "not a positive duration") {
			t.Errorf("--timeout %s: exit %d, stderr %q; want a usage error", v, r.code, r.stderr)
		}
	}
}

// TestServersDieWithTheCLI: however attachectl ends (killed, or by a
// signal it handles), the stdio server it started and that server's child
// are gone within seconds, though both ignore EOF and SIGTERM. After a
// signal it handles, attachectl itself ends killed by that signal.
func TestServersDieWithTheCLI(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pids")
			cmd := exec.Command(binPath, "read", mcptest.RawResourceURI, "--timeout", "60s", "--stdio", stubborn(pidFile))
			cmd.Env = append(os.Environ(), privateEnv(t)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var server, child int
			t.Cleanup(func() { // should the test fail, by their ids
				for _, pid := range []int{server, child} {
					if pid > 0 && !gone(pid) {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			within(t, 10*time.Second, "the server writes its pids", func() bool {
				b, err := os.ReadFile(pidFile)
				n, _ := fmt.Sscan(string(b), &server, &child)
				return err == nil && n == 2
			})
			cmd.Process.Signal(sig)
			select {
			case err := <-exited:
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
					t.Errorf("attachectl ended with %v (stderr %q); want killed by %s", err, stderr.String(), sig)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("attachectl still runs 10 s after %s", sig)
			}
			within(t, 5*time.Second, "the server and its child end", func() bool { return gone(server) && gone(child) })
		})
	}
}

// within polls cond until it holds, failing the test after d.
func within(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gone reports whether pid has exited (a zombie that no one reaped counts).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return err == nil && len(f) > 0 && f[0] == "Z"
}
