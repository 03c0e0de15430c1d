package ui

import (
	"context"
	"errors"
	"testing"

	"github.com/attache/attache/hostcore/config"
)

// TestPromptClosesWhenItsContextEnds: a dialog asking for a VS Code input
// goes away when no one waits for the answer any more, instead of waiting
// for an answer no one will read.
func TestPromptClosesWhenItsContextEnds(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.app.PromptInput(ctx, "vs", config.Input{ID: "token", Description: "API token", Password: true})
		done <- err
	}()
	overlay := func() bool {
		var up bool
		h.do(func() { up = h.app.Window().Canvas().Overlays().Top() != nil })
		return up
	}
	h.waitFor("the input dialog", overlay)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("PromptInput = %v; want canceled", err)
	}
	h.waitFor("the dialog to close", func() bool { return !overlay() })
}
