// Package hostcache wires the cache package's SQLite store to hostcore's
// BodyCache interface. The two never import each other (the house style's
// adapters rule); this is the one place they meet, shared by the binaries in
// cmd/.
package hostcache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// Open opens the body cache file in dataDir, bounded to maxBytes (0: the
// cache's default), and returns the store (to close) and its hostcore view.
func Open(dataDir string, maxBytes int64, logger *slog.Logger) (*cache.Store, hostcore.BodyCache, error) {
	s, err := cache.Open(filepath.Join(dataDir, "cache.db"), &cache.Options{MaxBytes: maxBytes, Logger: logger})
	if err != nil {
		return nil, nil, err
	}
	return s, New(s), nil
}

// New returns s as a hostcore.BodyCache.
func New(s *cache.Store) hostcore.BodyCache { return bodyCache{s} }

type bodyCache struct{ s *cache.Store }

func key(k hostcore.CacheKey) cache.Key {
	return cache.Key{Server: k.Server, Method: k.Method, Param: k.Param}
}

// filter maps hostcore's names to the cache's: hostcore's partition is the
// cache's Account, and hostcore's account name the cache's AccountName.
// Both are matched exactly.
func filter(f hostcore.CacheFilter) cache.Filter {
	return cache.Filter{Server: f.Server, Account: f.Partition, AccountName: f.Account, PrivateOnly: f.PrivateOnly}
}

// readError maps the store's read errors to hostcore's: a damaged entry
// (dropped by the store) is hostcore.ErrCacheEntryDamaged.
func readError(err error) error {
	if errors.Is(err, cache.ErrDamaged) {
		return fmt.Errorf("%w: %w", hostcore.ErrCacheEntryDamaged, err)
	}
	return err
}

// writeError maps the store's write errors to hostcore's: one that found
// the disk full (or the store read-only because of it) is a disk-full
// *fault.Error saying what was being written.
func writeError(op string, err error) error {
	if errors.Is(err, cache.ErrDiskFull) {
		return hostcore.NewDiskFullError(op, err)
	}
	return err
}

func (b bodyCache) Get(ctx context.Context, k hostcore.CacheKey, partition string) (hostcore.CacheEntry, bool, error) {
	e, ok, err := b.s.Get(ctx, key(k), partition)
	if !ok || err != nil {
		return hostcore.CacheEntry{}, false, readError(err)
	}
	return hostcore.CacheEntry{Key: k, Scope: string(e.Scope), Partition: e.Account, AccountName: e.AccountName,
		Value: e.Value, StoredAt: e.StoredAt, TTL: e.TTL, Size: e.Size}, true, nil
}

func (b bodyCache) GetDecoded(ctx context.Context, k hostcore.CacheKey, partition string, decode func([]byte) (any, error)) (hostcore.CacheEntry, any, bool, error) {
	e, v, ok, err := b.s.GetDecoded(ctx, key(k), partition, decode)
	if !ok || err != nil {
		return hostcore.CacheEntry{}, nil, false, readError(err)
	}
	return hostcore.CacheEntry{Key: k, Scope: string(e.Scope), Partition: e.Account, AccountName: e.AccountName,
		StoredAt: e.StoredAt, TTL: e.TTL, Size: e.Size}, v, true, nil
}

func (b bodyCache) Put(ctx context.Context, e hostcore.CacheEntry) error {
	err := b.s.Put(ctx, cache.Entry{Key: key(e.Key), Scope: cache.Scope(e.Scope), Account: e.Partition,
		AccountName: e.AccountName, Value: e.Value, StoredAt: e.StoredAt, TTL: e.TTL})
	return writeError("storing in the cache", err)
}

func (b bodyCache) Delete(ctx context.Context, k hostcore.CacheKey) (int, error) {
	n, err := b.s.Delete(ctx, key(k))
	return n, writeError("deleting from the cache", err)
}

func (b bodyCache) DeleteMethod(ctx context.Context, server, method string) (int, error) {
	n, err := b.s.DeleteMethod(ctx, server, method)
	return n, writeError("deleting from the cache", err)
}

func (b bodyCache) Purge(ctx context.Context, f hostcore.CacheFilter) (int, error) {
	n, err := b.s.Purge(ctx, filter(f))
	return n, writeError("purging the cache", err)
}

func (b bodyCache) Stats(ctx context.Context, f hostcore.CacheFilter) (hostcore.CacheStats, error) {
	st, err := b.s.Stats(ctx, filter(f))
	if err != nil {
		return hostcore.CacheStats{}, err
	}
	return hostcore.CacheStats{Entries: st.Entries, Bytes: st.Bytes, Public: st.Public, Private: st.Private,
		ByAccount: st.ByAccount, MaxBytes: st.MaxBytes, Path: st.Path, Hits: st.Hits, Misses: st.Misses, ReadOnly: st.ReadOnly}, nil
}

// CountsFor returns the token counts kept with the entry for k visible to
// partition (see cache.Store.Count). A store that fails has no count, and
// keeps none: the failure is logged by the caller's store and the item is
// counted again.
func (b bodyCache) CountsFor(k hostcore.CacheKey, partition string) pack.CountStore {
	return entryCounts{s: b.s, key: key(k), partition: partition}
}

// entryCounts is one entry's counts, as pack reads and keeps them.
type entryCounts struct {
	s         *cache.Store
	key       cache.Key
	partition string
}

func (c entryCounts) LoadCount(counter string) (pack.StoredCount, bool) {
	n, ok, err := c.s.Count(context.Background(), c.key, c.partition, counter)
	if err != nil || !ok {
		return pack.StoredCount{}, false
	}
	return pack.StoredCount{Counter: n.Counter, Subject: n.Subject, Tokens: n.Tokens}, true
}

func (c entryCounts) SaveCount(n pack.StoredCount) {
	// Best effort: a count not kept is counted again by the next process.
	_ = c.s.PutCount(context.Background(), c.key, c.partition, cache.Count{Counter: n.Counter, Subject: n.Subject, Tokens: n.Tokens})
}
