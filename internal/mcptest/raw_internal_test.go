package mcptest

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestCancelledStopsASlowRead(t *testing.T) {
	s := newRawServer(ModeSlow, (&Options{Delay: time.Hour}).withDefaults())
	done := make(chan error, 1)
	go func() {
		_, _, err := s.handle(t.Context(), []byte(`{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"test://raw/doc"}}`))
		done <- err
	}()
	cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r"}}`)
	deadline := time.After(10 * time.Second)
	for {
		// The read may not be registered yet: cancel until it ends.
		if msg, _, err := s.handle(t.Context(), cancel); msg != nil || err != nil {
			t.Fatalf("notifications/cancelled answered %v, %v", msg, err)
		}
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("the cancelled read ended with %v, want context.Canceled", err)
			}
			return
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatal("the read did not stop when cancelled")
		}
	}
}
