package hostcore_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// drain counts the items of a listing and returns the error that ended it.
func drain[T any](items iter.Seq2[T, error]) (int, error) {
	n := 0
	for _, err := range items {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// TestListingStopsOnACursorCycle lists a server whose cursors go a→b→a:
// the listing stops with a protocol error naming the server once a cursor
// comes back, instead of listing for ever (or until maxPages).
func TestListingStopsOnACursorCycle(t *testing.T) {
	sc := mcptestMem(t, mcptest.ModeCycle, nil)
	c := conn(t, newHost(t, nil), sc, "")
	ctx := context.Background()
	pages := 0
	n, err := drain(c.Resources(ctx, func(p hostcore.ListProgress) { pages = p.Pages }))
	if !errors.Is(err, fault.ErrProtocol) || !strings.Contains(err.Error(), mcptest.ModeCycle) || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("resources: %v; want a protocol error naming the server and the cycle", err)
	}
	if n != 3 || pages != 3 {
		t.Errorf("resources: %d items in %d pages before stopping; want the 3 pages of one round", n, pages)
	}
	n, err = drain(c.Templates(ctx, nil))
	if !errors.Is(err, fault.ErrProtocol) || n != 3 {
		t.Errorf("templates: %d items, %v; want 3 and a protocol error", n, err)
	}
}

// TestListingItemBound lists 250 resources under bounds below, at and
// above that number.
func TestListingItemBound(t *testing.T) {
	sc := mcptestHTTP(t, mcptest.ModePaged, "--resources", "250", "--page-size", "100")
	c := conn(t, newHost(t, nil), sc, "")
	ctx := context.Background()
	for _, tt := range []struct {
		max     int
		want    int
		stopped bool
	}{
		{0, 250, false}, // the default, 1,000,000
		{250, 250, false},
		{120, 120, true},
		{100, 100, true},
	} {
		n, err := drain(c.ResourcesWith(ctx, &hostcore.ListOptions{MaxItems: tt.max}))
		if n != tt.want || (err != nil) != tt.stopped {
			t.Errorf("MaxItems %d: %d items, %v; want %d, stopped %v", tt.max, n, err, tt.want, tt.stopped)
		}
		if tt.stopped && (!errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), "more than") || !strings.Contains(err.Error(), "paged")) {
			t.Errorf("MaxItems %d: %v; want a usage error (the caller's bound) naming the server and the bound", tt.max, err)
		}
	}
}
