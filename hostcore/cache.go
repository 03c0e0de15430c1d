package hostcore

import (
	"context"
	"errors"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// BodyCache is the store the host keeps results in: bytes by key, partition
// and TTL. The host decides what is cacheable, for whom and whether an entry
// is fresh; the store only keeps and returns entries. The cache package's
// SQLite store is wired to it in cmd/. Implementations must be safe for
// concurrent use and return copies.
type BodyCache interface {
	// Get returns the entry visible to partition: its private entry for
	// key, else the public one. It never returns another partition's
	// private entry.
	Get(ctx context.Context, key CacheKey, partition string) (CacheEntry, bool, error)
	// Put stores e, replacing the entry with the same key, scope and account.
	Put(ctx context.Context, e CacheEntry) error
	// Delete removes every partition's entry for key.
	Delete(ctx context.Context, key CacheKey) (int, error)
	// DeleteMethod removes every entry of one method of one server (all
	// pages of a list).
	DeleteMethod(ctx context.Context, server, method string) (int, error)
	// Purge removes the entries that match f, in one transaction.
	Purge(ctx context.Context, f CacheFilter) (int, error)
	// Stats describes the entries that match f.
	Stats(ctx context.Context, f CacheFilter) (CacheStats, error)
}

// ErrCacheEntryDamaged is wrapped by a BodyCache's Get (and GetDecoded)
// error for an entry whose bytes no longer match the digest stored with
// them: the store has dropped it, and the host reads the body again from
// the server, saying so (CacheInfo.Dropped).
var ErrCacheEntryDamaged = errors.New("the cached body does not match its digest")

// DecodingCache is a BodyCache that can keep the decoded form of an entry
// beside it in memory, so that a hit in its memory tier costs neither a
// decode nor a copy of the bytes. The host uses it when its cache offers
// it. decode must return an immutable value: the cache hands the same one
// to every hit. The CacheEntry returned has a nil Value.
type DecodingCache interface {
	GetDecoded(ctx context.Context, key CacheKey, partition string, decode func([]byte) (any, error)) (CacheEntry, any, bool, error)
}

// CountingCache is a BodyCache that keeps token counts with its entries:
// CountsFor returns the counts of the entry for key visible to partition,
// which the host puts on the item of each body it read (pack.Item.Counts),
// so that a body already counted is not counted again in any process.
type CountingCache interface {
	CountsFor(key CacheKey, partition string) pack.CountStore
}

// CacheKey identifies a cached result: the server's identity, the method,
// and the one parameter that shapes the result (uri, or cursor).
type CacheKey struct {
	Server string
	Method string
	Param  string
}

// Cache scopes, as the protocol spells them.
const (
	ScopePublic  = "public"
	ScopePrivate = "private"
)

// CacheEntry is one stored result.
type CacheEntry struct {
	Key   CacheKey
	Scope string // ScopePublic or ScopePrivate
	// Partition is the fingerprint of the authorization context of a
	// private entry (see Conn.Partition); "" for a public one.
	Partition string
	// AccountName is the name of the account that stored a private entry:
	// a label for people and for purges by name, never a partition.
	AccountName string
	Value       []byte
	StoredAt    time.Time
	TTL         time.Duration
	Size        int64
}

// CacheFilter selects entries; empty fields match everything.
type CacheFilter struct {
	Server string
	// Account selects the private entries stored by the account of exactly
	// this name, under every credential it has had.
	Account string
	// Partition selects the private entries of exactly one authorization
	// context.
	Partition   string
	PrivateOnly bool
}

// CacheStats describes a cache.
type CacheStats struct {
	Entries int   `json:"entries"`
	Bytes   int64 `json:"bytes"`
	Public  int   `json:"public"`
	Private int   `json:"private"`
	// ByAccount counts private entries by account name.
	ByAccount map[string]int `json:"byAccount,omitempty"`
	MaxBytes  int64          `json:"maxBytes"`
	Path      string         `json:"path,omitempty"`
	Hits      int64          `json:"hits"`
	Misses    int64          `json:"misses"`
	// ReadOnly says the cache was opened read-only because the disk was
	// full: hits are served, nothing is stored.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// MaxTTL is the longest TTL the host honours; longer hints are clamped and
// the clamp is logged.
const MaxTTL = 30 * 24 * time.Hour

// cacheScope normalizes a cacheScope hint: absent or unknown is private,
// since the final spec gives no default and guessing public could leak one
// account's body to another.
func cacheScope(s string) string {
	if s == ScopePublic {
		return ScopePublic
	}
	return ScopePrivate
}

// fresh reports whether e is fresh at now: now < storedAt + ttl.
func fresh(e CacheEntry, now time.Time) bool {
	return e.TTL > 0 && now.Before(e.StoredAt.Add(e.TTL))
}
