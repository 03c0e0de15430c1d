package hostcore

import (
	"context"
	"errors"
	"maps"
)

// generation returns key's invalidation count, including invalidations of
// its whole method (list_changed).
func (h *Host) generation(key CacheKey) uint64 {
	h.genMu.Lock()
	defer h.genMu.Unlock()
	return h.generations[key] + h.generations[methodKey(key.Server, key.Method)]
}

// methodKey stands for every key of one method of one server.
func methodKey(server, method string) CacheKey {
	return CacheKey{Server: server, Method: method, Param: "\x00every"}
}

// Invalidate evicts key from every partition. A read of key in flight when
// this runs will not write its (possibly outdated) result back.
func (h *Host) Invalidate(ctx context.Context, key CacheKey) {
	h.genMu.Lock()
	h.generations[key]++ // first, so an in-flight put sees it
	h.genMu.Unlock()
	if h.opts.Cache == nil {
		return
	}
	if _, err := h.opts.Cache.Delete(ctx, key); err != nil {
		h.log.Warn("cache invalidation failed", "key", key.Param, "err", err)
	}
}

// putIfCurrent stores e unless key was invalidated since gen was read. It
// checks before and after the put, so an invalidation racing with the put
// is never lost: whichever order they run in, the entry ends up gone.
func (h *Host) putIfCurrent(ctx context.Context, e CacheEntry, gen uint64) bool {
	if h.generation(e.Key) != gen {
		return false
	}
	if err := h.opts.Cache.Put(ctx, e); err != nil {
		h.log.Warn("cache write failed", "key", e.Key.Param, "err", err)
		return false
	}
	if h.generation(e.Key) != gen {
		h.opts.Cache.Delete(ctx, e.Key)
		return false
	}
	return true
}

func (h *Host) invalidateMethod(ctx context.Context, server, method string) {
	h.genMu.Lock()
	h.generations[methodKey(server, method)]++
	h.genMu.Unlock()
	if h.opts.Cache == nil {
		return
	}
	if _, err := h.opts.Cache.DeleteMethod(ctx, server, method); err != nil {
		h.log.Warn("cache invalidation failed", "method", method, "err", err)
	}
}

// Logout forgets an account's session and purges its private cache
// partition on that server in one transaction.
func (h *Host) Logout(ctx context.Context, server ServerConfig, account string) error {
	c, err := h.ConnFor(server, account)
	if err != nil {
		return err
	}
	h.forget(c)
	if h.opts.Cache == nil {
		return nil
	}
	_, err = h.opts.Cache.Purge(ctx, CacheFilter{Server: c.identity, Partition: c.partition, PrivateOnly: true})
	return err
}

// ReplaceServer stores a changed server entry in the config and saves it.
// Every account whose credentials changed, or that is gone, is logged out:
// its private partition is purged, since a different credential is a
// different authorization context.
func (h *Host) ReplaceServer(ctx context.Context, sc ServerConfig) error {
	old, err := h.cfg.Find(sc.Name, h.opts.Builtin...)
	if err := h.cfg.Upsert(sc); err != nil {
		return err
	}
	var errs []error
	if err == nil {
		for _, acct := range old.Accounts {
			if now, err := sc.Account(acct.Name); err != nil || !sameCredentials(acct, now) || old.Identity() != sc.Identity() {
				errs = append(errs, h.Logout(ctx, old, acct.Name))
			}
		}
	}
	errs = append(errs, h.cfg.Save())
	return errors.Join(errs...)
}

func sameCredentials(a, b Account) bool {
	return maps.Equal(a.Env, b.Env) && maps.Equal(a.Headers, b.Headers)
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
