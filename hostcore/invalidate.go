package hostcore

import (
	"context"
	"errors"

	"github.com/attache/attache/hostcore/fault"
)

// maxGenerations bounds h.generations: a long session invalidates many
// distinct keys (every resources/updated of every uri), and each would
// otherwise keep an entry for ever.
const maxGenerations = 4096

// generation returns a number that changes whenever key, or its whole
// method (list_changed), is invalidated, and never comes back to a value
// it had: a read compares it before storing its result (putIfCurrent).
//
// Every invalidation takes the next epoch of one counter for the whole
// Host, and h.generations keeps the last epoch of each key invalidated.
// A key's generation is the latest of its own epoch, its method's, and
// genReset, the epoch at which h.generations was last dropped. Dropping
// it therefore moves every key's generation on: a read in flight at that
// moment does not store its result even if its key was not invalidated,
// which costs a read from the server, never a stale entry.
func (h *Host) generation(key CacheKey) uint64 {
	h.genMu.Lock()
	defer h.genMu.Unlock()
	return max(h.generations[key], h.generations[methodKey(key.Server, key.Method)], h.genReset)
}

// bumpGeneration records an invalidation of key (a uri's, or a method's
// methodKey). A key not yet in h.generations, when it holds
// maxGenerations, drops them all instead (see generation).
func (h *Host) bumpGeneration(key CacheKey) {
	h.genMu.Lock()
	defer h.genMu.Unlock()
	h.genEpoch++
	if _, ok := h.generations[key]; !ok && len(h.generations) >= maxGenerations {
		h.generations = make(map[CacheKey]uint64) // new, so the old buckets are freed
		h.genReset = h.genEpoch
		return
	}
	h.generations[key] = h.genEpoch
}

// methodKey stands for every key of one method of one server.
func methodKey(server, method string) CacheKey {
	return CacheKey{Server: server, Method: method, Param: "\x00every"}
}

// Invalidate evicts key from every partition. A read of key in flight when
// this runs will not write its (possibly outdated) result back.
func (h *Host) Invalidate(ctx context.Context, key CacheKey) {
	h.bumpGeneration(key) // first, so an in-flight put sees it
	if h.opts.Cache == nil {
		return
	}
	if _, err := h.opts.Cache.Delete(ctx, key); err != nil {
		h.cacheWriteFailed("cache invalidation failed", "key", key.Param, "err", err)
	}
}

// cacheWriteFailed logs a cache write that failed, as a warning; when the
// disk is full, as a warning the first time only (every later write would
// say it again) and as information after.
func (h *Host) cacheWriteFailed(msg string, args ...any) {
	for _, a := range args {
		if err, ok := a.(error); ok && errors.Is(err, fault.ErrDiskFull) && h.diskFullTold.Swap(true) {
			h.log.Info(msg, args...)
			return
		}
	}
	h.log.Warn(msg, args...)
}

// putIfCurrent stores e unless key was invalidated since gen was read. It
// checks before and after the put, so an invalidation racing with the put
// is never lost: whichever order they run in, the entry ends up gone.
func (h *Host) putIfCurrent(ctx context.Context, e CacheEntry, gen uint64) bool {
	return h.storeIfCurrent(ctx, e, gen) == ""
}

// storeIfCurrent is putIfCurrent, saying why e was not stored ("" when it
// was): a full disk degrades a read to one that is not cached, never to a
// failed one.
func (h *Host) storeIfCurrent(ctx context.Context, e CacheEntry, gen uint64) string {
	const invalidated = "invalidated while the read was in flight"
	if h.generation(e.Key) != gen {
		return invalidated
	}
	if err := h.opts.Cache.Put(ctx, e); err != nil {
		h.cacheWriteFailed("cache write failed", "key", e.Key.Param, "err", err)
		if errors.Is(err, fault.ErrDiskFull) {
			return "the disk is full"
		}
		return "the cache could not store it"
	}
	if h.generation(e.Key) != gen {
		h.opts.Cache.Delete(ctx, e.Key)
		return invalidated
	}
	return ""
}

func (h *Host) invalidateMethod(ctx context.Context, server, method string) {
	h.bumpGeneration(methodKey(server, method))
	if h.opts.Cache == nil {
		return
	}
	if _, err := h.opts.Cache.DeleteMethod(ctx, server, method); err != nil {
		h.cacheWriteFailed("cache invalidation failed", "method", method, "err", err)
	}
}

// PurgeCache deletes the cache entries f selects, in one transaction.
func (h *Host) PurgeCache(ctx context.Context, f CacheFilter) (int, error) {
	if h.opts.Cache == nil {
		return 0, nil
	}
	return h.opts.Cache.Purge(ctx, f)
}

// CacheStats describes the cache entries f selects.
func (h *Host) CacheStats(ctx context.Context, f CacheFilter) (CacheStats, error) {
	if h.opts.Cache == nil {
		return CacheStats{}, nil
	}
	return h.opts.Cache.Stats(ctx, f)
}
