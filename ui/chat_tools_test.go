package ui

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// An approval asked for once the app's window is closed (a turn that
// reaches a tool call as the window closes) shows no dialog, and its turn
// ends: nothing is left waiting for a dialog that will never be shown.
func TestApprovalAfterCloseLeavesNoGoroutine(t *testing.T) {
	h, c, _, _ := chatHarness(t)
	h.do(h.app.Close)
	before := approvalWaiters()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the close stopped the turn
	a, _ := c.approve(ctx, consent.ToolRequest{Server: "threengram", Tool: toolcall.Tool{Name: "get_memories"}})
	if a != consent.ApproveDeny {
		t.Errorf("approve after the close = %v, want a denial", a)
	}
	deadline := time.Now().Add(20 * time.Second)
	for approvalWaiters() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d approval goroutines still wait for a dialog after the window closed, %d before", approvalWaiters(), before)
		}
		runtime.Gosched()
	}
}

// approvalWaiters counts the goroutines running in chatView.approve's
// closures.
func approvalWaiters() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	n := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("ui.(*chatView).approve.func")) {
			n++
		}
	}
	return n
}
