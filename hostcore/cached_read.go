package hostcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ReadMode says how a read uses the cache.
type ReadMode int

// Read modes.
const (
	// ReadUse answers from a fresh cache entry, else fetches and stores.
	ReadUse ReadMode = iota
	// ReadRefresh always fetches; it re-stores the result, or evicts the
	// entry when the new TTL is 0.
	ReadRefresh
	// ReadBypass fetches and leaves the cache alone.
	ReadBypass
)

// CacheStatus says where a read's answer came from.
type CacheStatus string

// Cache statuses.
const (
	CacheHit     CacheStatus = "hit"     // a fresh entry; the server was not asked
	CacheMiss    CacheStatus = "miss"    // fetched (and stored, if cacheable)
	CacheStale   CacheStatus = "stale"   // the refetch failed; an expired entry was served
	CacheRefresh CacheStatus = "refresh" // fetched on request, the entry replaced
	CacheBypass  CacheStatus = "bypass"  // fetched; the cache was left alone
	CacheNone    CacheStatus = "none"    // the host has no cache
)

// CacheInfo says how the cache took part in a read.
type CacheInfo struct {
	Status  CacheStatus   `json:"status"`
	Scope   string        `json:"scope,omitempty"`
	TTL     time.Duration `json:"-"`
	TTLLeft time.Duration `json:"-"`
	Age     time.Duration `json:"-"`
	Account string        `json:"account"`
	// Stored is false when a fetched result was not cacheable, and why.
	NotStored string `json:"notStored,omitempty"`
}

// cachedRead is the stored form of a read.
type cachedRead struct {
	Contents        []Content `json:"contents"`
	ProtocolVersion string    `json:"protocolVersion"`
}

const methodRead = "resources/read"

func (c *Conn) readKey(uri string) CacheKey {
	return CacheKey{Server: c.identity, Method: methodRead, Param: uri}
}

// Read reads uri through the host's cache (see ReadMode). Every answer is
// either a cache entry or the server's: go-sdk's own cache is off.
func (c *Conn) Read(ctx context.Context, uri string, mode ReadMode) (*ReadResult, error) {
	h := c.host
	if h.opts.Cache == nil {
		res, err := c.ReadServer(ctx, uri)
		if res != nil {
			res.Cache = CacheInfo{Status: CacheNone, Account: c.Account.Name}
		}
		return res, err
	}
	key := c.readKey(uri)
	var stale *CacheEntry
	if mode == ReadUse {
		e, ok, err := h.opts.Cache.Get(ctx, key, c.partition)
		if err != nil {
			h.log.Warn("cache read failed; asking the server", "err", err)
		}
		if ok && err == nil {
			if res, err := c.fromEntry(e, CacheHit); err == nil && fresh(e, h.opts.Now.now()) {
				return res, nil
			}
			stale = &e
		}
	}
	res, err := c.fetchShared(ctx, uri, mode)
	if err != nil {
		return c.staleIfError(stale, err)
	}
	return res, nil
}

// fetchShared makes one request for concurrent reads of the same uri by the
// same account (single flight), and stores the result unless an
// invalidation arrived while it was in flight (the generation guard).
func (c *Conn) fetchShared(ctx context.Context, uri string, mode ReadMode) (*ReadResult, error) {
	h := c.host
	key := c.readKey(uri)
	flight := fmt.Sprintf("%s\x00%s\x00%s\x00%d", key.Server, c.partition, uri, mode)
	v, err, _ := h.flights.Do(flight, func() (any, error) {
		gen := h.generation(key)
		res, err := c.ReadServer(ctx, uri)
		if err != nil {
			return nil, err
		}
		res.Cache = CacheInfo{Status: statusFor(mode), Scope: cacheScope(res.Hints.Scope), TTL: res.Hints.TTL,
			TTLLeft: res.Hints.TTL, Account: c.Account.Name}
		if mode != ReadBypass {
			res.Cache.NotStored = c.store(ctx, key, res, gen)
		}
		return res, nil
	})
	if err != nil {
		return nil, err
	}
	res := *v.(*ReadResult) // each caller gets its own copy of the result
	res.Contents = append([]Content(nil), res.Contents...)
	return &res, nil
}

func statusFor(mode ReadMode) CacheStatus {
	switch mode {
	case ReadRefresh:
		return CacheRefresh
	case ReadBypass:
		return CacheBypass
	}
	return CacheMiss
}

// store applies the rules: never store an incomplete (input_required)
// result, a zero TTL (and evict on refresh), or anything over the size
// limit; clamp absurd TTLs; keep a private result in its account's
// partition. It returns why nothing was stored, or "".
func (c *Conn) store(ctx context.Context, key CacheKey, res *ReadResult, gen uint64) string {
	h := c.host
	ttl := res.Hints.TTL
	switch {
	case !res.Complete:
		return "the result needed more input (multi round-trip)"
	case ttl <= 0:
		if _, err := h.opts.Cache.Delete(ctx, key); err != nil {
			h.log.Warn("cache delete failed", "err", err)
		}
		return "the server's ttlMs is 0 (immediately stale)"
	case res.Size() > h.opts.MaxBodyBytes:
		return "over the size limit"
	}
	if ttl > MaxTTL {
		h.log.Info("clamping an absurd ttlMs", "uri", key.Param, "ttl", ttl, "max", MaxTTL)
		ttl = MaxTTL
		res.Cache.TTL, res.Cache.TTLLeft = ttl, ttl
	}
	value, err := json.Marshal(cachedRead{Contents: res.Contents, ProtocolVersion: res.ProtocolVersion})
	if err != nil {
		return "could not encode: " + err.Error()
	}
	e := CacheEntry{Key: key, Scope: res.Cache.Scope, Value: value, StoredAt: h.opts.Now.now(), TTL: ttl}
	if e.Scope == ScopePrivate {
		e.Account = c.partition
	}
	if !h.putIfCurrent(ctx, e, gen) {
		return "invalidated while the read was in flight"
	}
	return ""
}

// fromEntry rebuilds a read from a cache entry.
func (c *Conn) fromEntry(e CacheEntry, status CacheStatus) (*ReadResult, error) {
	var v cachedRead
	if err := json.Unmarshal(e.Value, &v); err != nil {
		return nil, fmt.Errorf("decoding cache entry: %w", err)
	}
	now := c.host.opts.Now.now()
	age := now.Sub(e.StoredAt)
	return &ReadResult{URI: e.Key.Param, Contents: v.Contents, ProtocolVersion: v.ProtocolVersion, Complete: true,
		Hints: CacheHints{TTL: e.TTL, Scope: e.Scope},
		Cache: CacheInfo{Status: status, Scope: e.Scope, TTL: e.TTL, TTLLeft: max(e.TTL-age, 0), Age: age, Account: c.Account.Name},
	}, nil
}

// staleIfError serves an expired entry when the server cannot be reached,
// saying so; any other failure (not found, unauthorized) is returned as is,
// so a revoked credential never sees a stale private body.
func (c *Conn) staleIfError(stale *CacheEntry, err error) (*ReadResult, error) {
	if stale == nil || !(errors.Is(err, ErrTransport) || errors.Is(err, ErrTimeout)) {
		return nil, err
	}
	res, derr := c.fromEntry(*stale, CacheStale)
	if derr != nil {
		return nil, err
	}
	res.Cache.NotStored = "served stale because the server could not be reached: " + err.Error()
	return res, nil
}
