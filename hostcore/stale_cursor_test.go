package hostcore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/attache/attache/hostcore"
)

// TestStaleCachedCursorRestartsTheWalk: the TypeScript SDK 2.x server's
// list cursors expire (a new generation refuses the old ones). Page 1 is
// still fresh in the cache, page 2 is not: the host sends page 1's cached
// cursor, is refused, drops the list's cached pages and walks once more
// from a fresh page 1. Every resource comes once, of the new generation,
// and nothing stale was handed on.
func TestStaleCachedCursorRestartsTheWalk(t *testing.T) {
	sc := ts2Servers(t)["http"]
	cache := openCache(t, t.TempDir())
	h := newHost(t, &hostcore.HostOptions{Cache: cache})
	c := conn(t, h, sc, "")
	ctx := context.Background()
	names := func() ([]string, error) {
		var out []string
		for r, err := range c.Resources(ctx, nil) {
			if err != nil {
				return out, err
			}
			out = append(out, r.Name)
		}
		return out, nil
	}
	first, err := names()
	if err != nil || len(first) != 25 {
		t.Fatalf("first listing: %d, %v", len(first), err)
	}
	if _, err := personCall(t, h, c, "expire_cursors", nil); err != nil {
		t.Fatal(err)
	}
	// Page 2's entry ends (its ttl, say), page 1's is still fresh.
	var page2 string
	for _, m := range c.Tap().Messages() {
		var env struct {
			Result struct {
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if jsonUnmarshal(m.Raw, &env) == nil && env.Result.NextCursor != "" && page2 == "" {
			page2 = env.Result.NextCursor
		}
	}
	h.Invalidate(ctx, hostcore.CacheKey{Server: sc.Identity(), Method: "resources/list", Param: page2})

	second, err := names()
	if err != nil {
		t.Fatalf("second listing: %v", err)
	}
	want := make([]string, 25)
	for i := range want {
		want[i] = fmt.Sprintf("item %d (gen 2)", i)
	}
	if !slices.Equal(second, want) {
		t.Errorf("second listing:\n%q\nwant every item once, of generation 2", second)
	}
}
