package hostcore

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// putRecorder is a BodyCache that records what it is given to store.
// This internal test cannot use the SQLite cache: its adapter imports
// hostcore.
type putRecorder struct {
	mu   sync.Mutex
	puts []CacheKey
}

func (r *putRecorder) Put(_ context.Context, e CacheEntry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.puts = append(r.puts, e.Key)
	return nil
}

func (r *putRecorder) Get(context.Context, CacheKey, string) (CacheEntry, bool, error) {
	return CacheEntry{}, false, nil
}
func (r *putRecorder) Delete(context.Context, CacheKey) (int, error)             { return 0, nil }
func (r *putRecorder) DeleteMethod(context.Context, string, string) (int, error) { return 0, nil }
func (r *putRecorder) Purge(context.Context, CacheFilter) (int, error)           { return 0, nil }
func (r *putRecorder) Stats(context.Context, CacheFilter) (CacheStats, error) {
	return CacheStats{}, nil
}

func (r *putRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.puts)
}

func uriKey(i int) CacheKey {
	return CacheKey{Server: "mem", Method: "resources/read", Param: fmt.Sprintf("mem://%d", i)}
}

// TestGenerationsStayBounded: a session that invalidates 100,000 distinct
// uris keeps at most maxGenerations of them.
func TestGenerationsStayBounded(t *testing.T) {
	h, ctx := NewHost(nil, nil), context.Background()
	for i := range 100_000 {
		h.Invalidate(ctx, uriKey(i))
		if i%10 == 0 {
			h.invalidateMethod(ctx, "mem", fmt.Sprintf("method/%d", i))
		}
		if n := len(h.generations); n > maxGenerations {
			t.Fatalf("after %d invalidations the map holds %d keys; want at most %d", i+1, n, maxGenerations)
		}
	}
	if h.genReset == 0 {
		t.Error("110,000 invalidations never dropped the map")
	}
}

// TestGenerationGuard: a read that began before an invalidation of its
// key, of its method, or of so many other keys that the map was dropped,
// does not store its result; a read that saw no invalidation does. Each
// case runs twice: with room in the map, and with the map full and
// dropped once already, so that the next new key drops it again.
func TestGenerationGuardAcrossDrops(t *testing.T) {
	key := uriKey(-1)
	pastTheBound := func(ctx context.Context, h *Host) {
		for i := range 3 * maxGenerations {
			h.Invalidate(ctx, uriKey(i))
		}
	}
	tests := []struct {
		name       string
		invalidate func(ctx context.Context, h *Host)
		// stored and dropped: whether the result is stored and the map
		// dropped during the read, with room in the map and when full.
		stored, dropped [2]bool
	}{
		{"nothing", func(context.Context, *Host) {}, [2]bool{true, true}, [2]bool{false, false}},
		{"another key", func(ctx context.Context, h *Host) { h.Invalidate(ctx, uriKey(1)) },
			[2]bool{true, false}, [2]bool{false, true}},
		{"its key", func(ctx context.Context, h *Host) { h.Invalidate(ctx, key) },
			[2]bool{false, false}, [2]bool{false, true}},
		{"its method", func(ctx context.Context, h *Host) { h.invalidateMethod(ctx, key.Server, key.Method) },
			[2]bool{false, false}, [2]bool{false, true}},
		{"another method", func(ctx context.Context, h *Host) { h.invalidateMethod(ctx, key.Server, "resources/list") },
			[2]bool{true, false}, [2]bool{false, true}},
		{"other keys, past the bound", pastTheBound, [2]bool{false, false}, [2]bool{true, true}},
		{"its key, then other keys past the bound", func(ctx context.Context, h *Host) {
			h.Invalidate(ctx, key)
			pastTheBound(ctx, h)
		}, [2]bool{false, false}, [2]bool{true, true}},
	}
	for full, mode := range []string{"room", "full"} {
		for _, tt := range tests {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				rec := &putRecorder{}
				h, ctx := NewHost(nil, &HostOptions{Cache: rec}), context.Background()
				if full == 1 {
					for i := range 2*maxGenerations + 1 { // one drop, then a full map
						h.Invalidate(ctx, uriKey(1_000_000+i))
					}
					if h.genReset == 0 || len(h.generations) != maxGenerations {
						t.Fatalf("setup: reset at %d, %d keys; want a drop and %d keys", h.genReset, len(h.generations), maxGenerations)
					}
				}
				reset := h.genReset
				gen := h.generation(key) // the read begins
				tt.invalidate(ctx, h)
				if dropped := h.genReset != reset; dropped != tt.dropped[full] {
					t.Fatalf("the map dropped during the read: %v; want %v", dropped, tt.dropped[full])
				}
				got := h.putIfCurrent(ctx, CacheEntry{Key: key}, gen)
				if got != tt.stored[full] || (rec.count() == 1) != tt.stored[full] {
					t.Errorf("putIfCurrent = %v with %d puts; want %v", got, rec.count(), tt.stored[full])
				}
			})
		}
	}
}
