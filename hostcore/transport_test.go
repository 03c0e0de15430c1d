package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// TestGarbageIsAProtocolError: bytes that are not JSON-RPC where the
// server's messages belong are a protocol error, wherever they come: a
// banner before the handshake, the answer to initialize, the answer to a
// read; on stdout and in an HTTP reply.
func TestGarbageIsAProtocolError(t *testing.T) {
	banner := mcptestStdio(t, mcptest.ModeV2026)
	banner.Args = []string{"-c", `echo "Server started on stdio"; exec "$0" --mode v2026 --stdio`, banner.Command}
	banner.Command, banner.Name = "sh", "banner"
	for _, tt := range []struct {
		name string
		sc   config.ServerConfig
		says string
	}{
		{"banner/stdio", banner, `wrote "Server started on stdio" on stdout, which is not JSON-RPC`},
		{"initialize/stdio", mcptestStdio(t, mcptest.ModeNotJSONInit), `wrote "this is not json" on stdout, which is not JSON-RPC`},
		{"initialize/http", mcptestHTTP(t, mcptest.ModeNotJSONInit), `answered "this is not json", which is not JSON-RPC`},
		{"read/stdio", mcptestStdio(t, mcptest.ModeNotJSON), `wrote "this is not json" on stdout, which is not JSON-RPC`},
		{"read/http", mcptestHTTP(t, mcptest.ModeNotJSON), `answered "this is not json", which is not JSON-RPC`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := conn(t, newHost(t, nil), tt.sc, "").ReadServer(context.Background(), mcptest.RawResourceURI)
			var he *fault.Error
			if !errors.Is(err, fault.ErrProtocol) || !errors.As(err, &he) || !strings.Contains(he.Message(), tt.says) {
				t.Fatalf("read = %v; want a protocol error saying %s", err, tt.says)
			}
		})
	}
}

// TestConnectFailureShowsStderr: a stdio server that fails to connect
// leaves its last 20 lines of stderr on the error.
func TestConnectFailureShowsStderr(t *testing.T) {
	last20 := func(n int, format string) []string {
		var lines []string
		for i := n - 19; i <= n; i++ {
			lines = append(lines, fmt.Sprintf(format, i))
		}
		return lines
	}
	exits := config.ServerConfig{Name: "exits", Command: "sh",
		Args: []string{"-c", `i=1; while [ $i -le 30 ]; do echo "failing $i" >&2; i=$((i+1)); done; exit 3`}}
	for _, tt := range []struct {
		name string
		sc   config.ServerConfig
		kind error
		want []string
	}{
		{"garbage", mcptestStdio(t, mcptest.ModeNotJSONInit), fault.ErrProtocol, last20(mcptest.InitStderrLines, "stderr line %d")},
		{"exit", exits, fault.ErrTransport, last20(30, "failing %d")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := conn(t, newHost(t, nil), tt.sc, "").Session(context.Background())
			var he *fault.Error
			if !errors.Is(err, tt.kind) || !errors.As(err, &he) {
				t.Fatalf("connect = %v; want %v", err, tt.kind)
			}
			if diff := cmp.Diff(tt.want, he.Stderr()); diff != "" {
				t.Errorf("Stderr() (-want +got):\n%s", diff)
			}
		})
	}
}

// TestServerOutlivesTheStartingThread: on Linux a stdio server dies with
// the OS thread that started it (Pdeathsig), and the Go runtime ends the
// thread of a goroutine that exits locked to it. A server connected from
// such a goroutine must live on: the host starts servers from threads of
// its own, which live as long as the server.
func TestServerOutlivesTheStartingThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Pdeathsig is Linux's")
	}
	c := conn(t, newHost(t, nil), mcptestStdio(t, mcptest.ModeV2025Nov), "")
	var tid int
	for tid == 0 {
		errc := make(chan error, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			if syscall.Gettid() == os.Getpid() {
				runtime.UnlockOSThread() // the main thread never ends: try another
				errc <- nil
				return
			}
			tid = syscall.Gettid()
			_, err := c.Session(context.Background())
			errc <- err
		}()
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	thread := fmt.Sprintf("/proc/self/task/%d", tid)
	eventually(t, "the locked thread ends", func() bool { _, err := os.Stat(thread); return err != nil })
	pid := c.Info().PID
	if syscall.Kill(pid, 0) != nil || isZombie(pid) {
		t.Fatalf("server %d died with the thread of the goroutine that connected", pid)
	}
	if _, err := c.ReadServer(context.Background(), mcptest.ReadmeURI); err != nil {
		t.Errorf("read after the thread ended: %v", err)
	}
}

// eventually polls cond until it holds, for at most 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
