package hostcore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/hostcore/wire"
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
	// Dropped says why a cached body was thrown away before this read
	// asked the server: it no longer matched the digest stored with it.
	Dropped string `json:"dropped,omitempty"`
}

// droppedDamaged is CacheInfo.Dropped for a body that failed its digest.
const droppedDamaged = "the cached body did not match its digest: it was dropped and read again from the server"

// cachedRead is the stored form of a read.
type cachedRead struct {
	Contents        []pack.Content `json:"contents"`
	ProtocolVersion string         `json:"protocolVersion"`
}

const methodRead = "resources/read"

func (c *Conn) readKey(uri string) CacheKey {
	return CacheKey{Server: c.identity, Method: methodRead, Param: uri}
}

// Read reads uri through the host's cache (see ReadMode). Every answer is
// either a cache entry or the server's: go-sdk's own cache is off.
//
// The authorization context is resolved (VS Code inputs asked for) before
// any private entry is looked up. A private entry of an HTTP server is
// served only once the context is known to authenticate in this host (a
// session exists, or connecting succeeds), so that a revoked credential,
// answered 401, never sees the bodies it fetched before: seed 000's
// erasure relies on exactly that.
func (c *Conn) Read(ctx context.Context, uri string, mode ReadMode) (*ReadResult, error) {
	h := c.host
	if c.Closed() {
		return nil, c.errClosed("reading " + uri)
	}
	if h.opts.Cache == nil {
		res, err := c.readServerGated(ctx, uri)
		if res != nil {
			res.Cache = CacheInfo{Status: CacheNone, Account: c.Account.Name}
		}
		return res, err
	}
	partition, err := c.Partition(ctx)
	if err != nil {
		return nil, err
	}
	key := c.readKey(uri)
	var lk lookup
	if mode == ReadUse {
		if lk = c.lookup(ctx, key, partition); lk.fresh != nil {
			return c.verified(ctx, lk.fresh.entry, c.fromEntry(lk.fresh.entry, lk.fresh.read, CacheHit, lk.now))
		}
	}
	stale, dropped := lk.stale, lk.dropped
	res, err := c.fetchShared(ctx, uri, mode, partition)
	if err != nil {
		if errors.Is(err, fault.ErrForbidden) {
			h.evict(ctx, key) // this context may no longer read it
		}
		return c.staleIfError(stale, err)
	}
	res.Cache.Dropped = dropped
	return res, nil
}

// lookup is what the cache holds for a read: a fresh entry, or a stale one
// kept in case the server cannot be reached, and why an entry was dropped.
type lookup struct {
	fresh, stale *heldEntry
	now          time.Time
	dropped      string
}

// lookup looks key up in partition. A cache that fails is logged and
// passed over: the server is asked.
func (c *Conn) lookup(ctx context.Context, key CacheKey, partition string) lookup {
	h := c.host
	e, v, ok, err := h.cacheGet(ctx, key, partition)
	if err != nil {
		h.log.Warn("cache read failed; asking the server", "err", err)
	}
	lk := lookup{now: h.opts.Now.now()}
	switch {
	case errors.Is(err, ErrCacheEntryDamaged):
		lk.dropped = droppedDamaged
	case !ok || err != nil:
	case fresh(e, lk.now):
		lk.fresh = &heldEntry{e, v}
	default:
		lk.stale = &heldEntry{e, v}
	}
	return lk
}

// verified serves a fresh entry. A private entry of an HTTP server needs a
// context that authenticates: without a session, this connects first. A
// refused credential gets the error (and its partition is purged); a
// server that cannot be reached gets the entry, saying so.
func (c *Conn) verified(ctx context.Context, e CacheEntry, res *ReadResult) (*ReadResult, error) {
	if e.Scope != ScopePrivate || !c.Server.IsHTTP() {
		return res, nil
	}
	if o := c.oauthOf(); o != nil {
		// A grant is live while its access token is valid or refreshes.
		if err := o.Live(ctx); err != nil {
			return nil, err
		}
	}
	if cs, _ := c.live(); cs != nil {
		return res, nil
	}
	_, err := c.session(ctx)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, fault.ErrTransport) || errors.Is(err, fault.ErrTimeout):
		res.Cache.NotStored = "served without checking the credentials: the server could not be reached: " + err.Error()
		return res, nil
	}
	return nil, err
}

// servable reports whether a fresh list page may be served without asking
// the server: a private page of an HTTP server only while a session proves
// the context authenticates (the listing then asks the server, which
// connects).
func (c *Conn) servable(e CacheEntry) bool {
	if e.Scope != ScopePrivate || !c.Server.IsHTTP() {
		return true
	}
	cs, _ := c.live()
	return cs != nil
}

// evict drops key's entries (every partition's: over-evicting is safe).
func (h *Host) evict(ctx context.Context, key CacheKey) {
	if _, err := h.opts.Cache.Delete(ctx, key); err != nil {
		h.cacheWriteFailed("cache eviction failed", "key", key.Param, "err", err)
	}
}

// fetchShared makes one request for concurrent reads of the same uri in the
// same authorization context (single flight), and stores the result unless
// an invalidation arrived while it was in flight (the generation guard).
// The shared request runs under the host's timeouts, not the first
// caller's cancellation: each caller waits on its own context and can give
// up alone.
func (c *Conn) fetchShared(ctx context.Context, uri string, mode ReadMode, partition string) (*ReadResult, error) {
	h := c.host
	key := c.readKey(uri)
	ctx = signin.WithCallerDeadline(ctx) // a sign-in inside the flight still ends by the caller's deadline
	flight := fmt.Sprintf("%s\x00%s\x00%s\x00%d", key.Server, partition, uri, mode)
	ch := h.flights.DoChan(flight, func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.opts.ConnectTimeout+h.opts.RequestTimeout+maxBackoff)
		defer cancel()
		fctx = withAsker(fctx, ctx) // a question for the person follows the caller who asked (elicit.go)
		if mode == ReadUse {
			// A caller that missed the cache just before the previous
			// flight of this uri stored its result and ended starts a new
			// flight: look again, so that it is served what was stored.
			if e, v, ok, err := h.cacheGet(fctx, key, partition); ok && err == nil {
				if now := h.opts.Now.now(); fresh(e, now) {
					return c.verified(fctx, e, c.fromEntry(e, v, CacheHit, now))
				}
			}
		}
		gen := h.generation(key)
		res, err := c.readServerGated(fctx, uri)
		if err != nil {
			return nil, err
		}
		res.Cache = CacheInfo{Status: statusFor(mode), Scope: cacheScope(res.Hints.Scope), TTL: res.Hints.TTL,
			TTLLeft: res.Hints.TTL, Account: c.Account.Name}
		if mode != ReadBypass {
			res.Cache.NotStored = c.store(fctx, key, res, gen, partition)
		}
		return res, nil
	})
	var r singleflight.Result
	select {
	case r = <-ch:
	case <-ctx.Done():
		return nil, classify(ctx.Err(), "reading "+uri, uri, 0)
	}
	if r.Err != nil {
		return nil, r.Err
	}
	res := *r.Val.(*ReadResult) // each caller gets its own copy of the result
	res.Contents = append([]pack.Content(nil), res.Contents...)
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
func (c *Conn) store(ctx context.Context, key CacheKey, res *ReadResult, gen uint64, partition string) string {
	h := c.host
	ttl := res.Hints.TTL
	switch {
	case !res.Complete:
		return "the result needed more input (multi round-trip)"
	case ttl <= 0:
		if _, err := h.opts.Cache.Delete(ctx, key); err != nil {
			h.cacheWriteFailed("cache delete failed", "err", err)
		}
		return res.Hints.StaleReason()
	case res.Size() > h.opts.MaxBodyBytes:
		return "over the size limit"
	}
	if ttl > MaxTTL {
		h.log.Info("clamping an absurd ttlMs", "uri", key.Param, "ttl", ttl, "max", MaxTTL)
		ttl = MaxTTL
		res.Cache.TTL, res.Cache.TTLLeft = ttl, ttl
	}
	value, err := encodeRead(cachedRead{Contents: res.Contents, ProtocolVersion: res.ProtocolVersion}, res.room)
	if err != nil {
		return "could not encode: " + err.Error()
	}
	e := CacheEntry{Key: key, Scope: res.Cache.Scope, Value: value, StoredAt: h.opts.Now.now(), TTL: ttl}
	if e.Scope == ScopePrivate {
		e.Partition, e.AccountName = partition, c.Account.Name
	}
	if why := h.storeIfCurrent(ctx, e, gen); why != "" {
		return why
	}
	if c.Closed() {
		// Logged out or removed while the read was in flight: the purge may
		// have run before this put, so take the entry back out.
		h.evict(ctx, key)
		return "the connection was closed while the read was in flight"
	}
	return ""
}

// heldEntry is a cache entry and its decoded read: a fresh one to serve,
// or an expired one kept in case the server cannot be reached.
type heldEntry struct {
	entry CacheEntry
	read  *cachedRead
}

// cacheGet gets key's entry for partition, decoded. A DecodingCache keeps
// the decoded read in its memory tier, so a memory hit decodes nothing; any
// other BodyCache's bytes are decoded here. An entry that does not decode
// is an error.
func (h *Host) cacheGet(ctx context.Context, key CacheKey, partition string) (CacheEntry, *cachedRead, bool, error) {
	if dc, ok := h.opts.Cache.(DecodingCache); ok {
		e, v, ok, err := dc.GetDecoded(ctx, key, partition, decodeRead)
		if !ok || err != nil {
			return CacheEntry{}, nil, false, err
		}
		return e, v.(*cachedRead), true, nil
	}
	e, ok, err := h.opts.Cache.Get(ctx, key, partition)
	if !ok || err != nil {
		return CacheEntry{}, nil, false, err
	}
	v, err := decodeRead(e.Value)
	if err != nil {
		return CacheEntry{}, nil, false, err
	}
	return e, v.(*cachedRead), true, nil
}

// decodeRead decodes a stored read, with go-sdk's decoder (decodeWire: a
// SQLite hit spent a fifth of its time in encoding/json). The *cachedRead
// it returns is never changed afterwards: fromEntry copies its contents out.
func decodeRead(value []byte) (any, error) {
	if bytes.HasPrefix(value, framedRead) {
		return decodeFramedRead(value)
	}
	v := new(cachedRead)
	if err := wire.Decode(value, v); err != nil {
		return nil, fmt.Errorf("decoding cache entry: %w", err)
	}
	return v, nil
}

// fromEntry rebuilds a read from a cache entry and its decoded read. The
// result gets its own slice of contents; their strings are immutable and
// their blobs shared, as with every result (callers never write to them).
func (c *Conn) fromEntry(e CacheEntry, v *cachedRead, status CacheStatus, now time.Time) *ReadResult {
	age := now.Sub(e.StoredAt)
	return &ReadResult{URI: e.Key.Param, Contents: slices.Clone(v.Contents), ProtocolVersion: v.ProtocolVersion, Complete: true,
		Hints: CacheHints{TTL: e.TTL, Scope: e.Scope},
		Cache: CacheInfo{Status: status, Scope: e.Scope, TTL: e.TTL, TTLLeft: max(e.TTL-age, 0), Age: age, Account: c.Account.Name},
	}
}

// staleIfError serves an expired entry when the server cannot be reached,
// saying so; any other failure (not found, unauthorized) is returned as is,
// so a revoked credential never sees a stale private body.
func (c *Conn) staleIfError(stale *heldEntry, err error) (*ReadResult, error) {
	h := c.host
	if stale == nil || !(errors.Is(err, fault.ErrTransport) || errors.Is(err, fault.ErrTimeout)) {
		return nil, err
	}
	res := c.fromEntry(stale.entry, stale.read, CacheStale, h.opts.Now.now())
	res.Cache.NotStored = "served stale because the server could not be reached: " + err.Error()
	return res, nil
}

// A read with large blobs is stored framed rather than as JSON, so that
// storing it copies the blobs once and encodes nothing to base64 (which
// cost some three times the body, in the buffers encoding/json grows): a
// marker no JSON starts with, the header's length (4 bytes, big-endian),
// the header (the read as JSON, each blob's bytes left out and its length
// in Blobs), then the blobs' bytes one after another. A hit's blobs are
// slices of the stored value.
var framedRead = []byte("\x00attache-read-1\x00")

// framedHeader is a framed read's header.
type framedHeader struct {
	cachedRead
	// Blobs holds each entry's blob length, -1 for an entry kept in the
	// header (a text).
	Blobs []int `json:"blobs"`
}

// encodeRead is a read as the cache stores it: JSON, or framed when its
// blobs are large. room, if set, is the allocation of the read's one blob
// with room before it (bigread.go): the head is written there, and the
// value shares the blob's bytes instead of copying them.
func encodeRead(r cachedRead, room []byte) ([]byte, error) {
	total := 0
	for _, c := range r.Contents {
		total += len(c.Blob)
	}
	if total < wire.BigValueMin {
		return json.Marshal(r)
	}
	h := framedHeader{cachedRead: cachedRead{ProtocolVersion: r.ProtocolVersion}}
	for _, c := range r.Contents {
		n := -1
		if c.IsBlob {
			n, c.Blob = len(c.Blob), nil
		}
		h.Contents, h.Blobs = append(h.Contents, c), append(h.Blobs, n)
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if v := inRoom(r, room, head); v != nil {
		return v, nil
	}
	out := make([]byte, 0, len(framedRead)+4+len(head)+total)
	out = append(out, framedRead...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(head)))
	out = append(out, head...)
	for _, c := range r.Contents {
		out = append(out, c.Blob...)
	}
	return out, nil
}

// inRoom writes a framed read's head just before its one blob, in the
// room left there, and returns the value from the head on; nil when the
// read's blob is not the one in room, or the head does not fit.
func inRoom(r cachedRead, room, head []byte) []byte {
	need := len(framedRead) + 4 + len(head)
	blob := -1
	for i, c := range r.Contents {
		if len(c.Blob) > 0 {
			if blob >= 0 {
				return nil
			}
			blob = i
		}
	}
	if blob < 0 || need > wire.FrameRoom || len(room) != wire.FrameRoom+len(r.Contents[blob].Blob) ||
		&room[wire.FrameRoom] != &r.Contents[blob].Blob[0] {
		return nil
	}
	v := room[wire.FrameRoom-need:]
	at := copy(v, framedRead)
	binary.BigEndian.PutUint32(v[at:], uint32(len(head)))
	copy(v[at+4:], head)
	return v
}

// decodeFramedRead decodes a framed read; its blobs share value's bytes.
func decodeFramedRead(value []byte) (any, error) {
	rest := value[len(framedRead):]
	if len(rest) < 4 || uint64(binary.BigEndian.Uint32(rest)) > uint64(len(rest)-4) {
		return nil, errors.New("decoding cache entry: a framed read cut short")
	}
	n := int(binary.BigEndian.Uint32(rest))
	var h framedHeader
	if err := wire.Decode(rest[4:4+n], &h); err != nil {
		return nil, fmt.Errorf("decoding cache entry: %w", err)
	}
	blobs := rest[4+n:]
	if len(h.Blobs) != len(h.Contents) {
		return nil, errors.New("decoding cache entry: a framed read's blobs do not match its entries")
	}
	for i, size := range h.Blobs {
		if size < 0 {
			continue
		}
		if size > len(blobs) {
			return nil, errors.New("decoding cache entry: a framed read cut short")
		}
		h.Contents[i].Blob, blobs = blobs[:size:size], blobs[size:]
	}
	return &h.cachedRead, nil
}
