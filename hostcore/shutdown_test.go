package hostcore_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/threengram"
)

// Shutdown waits for the goroutine a reconnect starts (it subscribes again
// and runs the OnConnect hooks): it does not return while a hook runs.
func TestShutdownWaitsForResubscribe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := subscribeServer("2025-11-25", func(int) error { return nil })
		sc, st := serverMem(t, "subs", srv)
		h := hostcore.NewHost(nil, withInProcess(nil))
		c := conn(t, h, sc, "")
		ctx := context.Background()
		if err := c.Subscribe(ctx, "subs://one"); err != nil {
			t.Fatal(err)
		}
		entered, release := make(chan struct{}), make(chan struct{})
		c.OnConnect(func() {
			close(entered)
			<-release
		})
		st.Drop() // the server hangs up
		synctest.Wait()
		if s := c.Info().State; s != hostcore.StateDisconnected {
			t.Fatalf("state %s after the server hung up; want disconnected", s)
		}
		if _, err := c.Session(ctx); err != nil { // reconnects: subscribes again, then the hooks
			t.Fatal(err)
		}
		<-entered
		done := make(chan struct{})
		go func() {
			h.Shutdown(ctx)
			close(done)
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Shutdown returned while the goroutine it started after the reconnect was still running")
		default:
		}
		close(release)
		<-done
	})
}

// After Shutdown nothing the host started is left running: neither the
// sessions' watchers, nor the stdio servers' process goroutines, nor the
// close of a session dropped after a transport failure, nor (on a host
// that is closed) any new connect.
func TestShutdownLeavesNoGoroutine(t *testing.T) {
	h := hostcore.NewHost(nil, withInProcess(nil))
	ctx := context.Background()
	stdio := conn(t, h, threengramStdio(t), "acme")
	mem := conn(t, h, threengramMem(t), "acme")
	dying := conn(t, h, mcptestStdio(t, mcptest.ModeDieOnRead), "")
	for _, c := range []*hostcore.Conn{stdio, mem} {
		if _, err := c.Read(ctx, threengram.MemoryURI(someIDs(t, c)[0]), hostcore.ReadUse); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dying.ReadServer(ctx, mcptest.RawResourceURI); err == nil {
		t.Fatal("die-on-read answered a read")
	}
	if err := h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for left := hostGoroutines(); len(left) > 0; left = hostGoroutines() {
		if time.Now().After(deadline) {
			t.Fatalf("after Shutdown, %d goroutines of the host are still running:\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond) // polling with a deadline: each may be in its last instructions
	}
	late := conn(t, h, threengramMem(t), "acme")
	if _, err := late.Session(ctx); err == nil || !late.Closed() {
		t.Errorf("a connection asked of a closed host connected (%v); want it closed", err)
	}
}

// hostGoroutines returns the stacks of the goroutines running the host's
// code (the test's own excepted).
func hostGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "attache/hostcore.") && !strings.Contains(g, "hostcore_test.") {
			out = append(out, g)
		}
	}
	return out
}
