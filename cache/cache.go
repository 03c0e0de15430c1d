// Package cache stores resources/read bodies and list pages by key,
// partition and TTL in SQLite. It knows nothing of hostcore or MCP: the host
// decides what is cacheable and for whom, the cache stores bytes.
//
// # Partitions
//
// An entry lives in one partition of its Key: the Public partition, shared
// by every account, or a Private partition. A private partition is an
// opaque string, Entry.Account, that the host derives from an authorization
// context; the store only compares it byte for byte. Get(key, account)
// returns the partition's Private entry if there is one, else the Public
// one; it never returns an entry of another private partition, from either
// tier. The rule is also a CHECK constraint of the table: a public row has
// no partition and a private row has one.
//
// A private entry also carries a label, Entry.AccountName: the name of the
// account that stored it. Several names may share one partition (two
// accounts with the same credentials are one authorization context), so
// the label never decides what Get returns; it serves Purge and Stats by
// name (Filter.AccountName), matched exactly.
//
// # Freshness
//
// The store records StoredAt and TTL and never judges them: a stale entry is
// returned like a fresh one, so that the host can serve it, saying so, when
// the server is unreachable. Entries leave only through Delete, DeleteMethod,
// Purge, or eviction when the store is full.
//
// # Removal
//
// Every connection runs with PRAGMA secure_delete on, so a removed entry's
// bytes are overwritten with zeros in the file rather than left on a free
// page. Purge, the removal a user or a logout asks for, also checkpoints
// the write-ahead log and truncates it, so that the older copies of the
// pages it held leave the -wal file too.
//
// # Tiers
//
// A Store keeps the answers to recent Gets in a bounded in-memory LRU in
// front of the SQLite file. Values are copied in and out: the caller owns
// the slice it passes to Put and the one Get returns, and changing either
// never changes what the store holds.
//
// # Size
//
// Options.MaxBytes bounds the sum of the stored values. A Put that would
// exceed it evicts the least recently used entries (by last access, to the
// second: a Get counts as an access) in the same transaction. The file itself is larger
// by its keys and indexes, and keeps the pages it has freed for reuse.
//
// # Durability and recovery
//
// The file is in WAL mode, so a process killed mid-write leaves a database
// that opens and passes PRAGMA integrity_check; Store.Check runs that check.
// Open runs PRAGMA quick_check when one is due: after an unclean shutdown,
// when the file changed behind the back of the sessions that closed it, or
// once a week (see sqlitefile.Session); a check reads every page (0.2 to
// 0.8 s for a full 256 MiB file on a 2-core machine), so it is not run on
// every open. A file that is not a database, fails that check, was written
// by a newer schema, or may not be opened for lack of permission is moved
// aside to <path>.corrupt-<unix time>, with a warning in the log, and
// a new one is created in its place. Open creates the file readable by its
// owner only, and its directory likewise: it holds private bodies. A file
// that is merely busy (another
// process holding the write lock past the busy timeout) is left alone and
// Open fails.
//
// # Sharing
//
// A *Store is safe for concurrent use by many goroutines, and several
// processes (the app and attachectl, say) may open the same file. A
// Store's own writes reach its memory tier at once. Other processes' writes
// are noticed through PRAGMA data_version, looked at before answering from
// memory at most every 100 ms: a purge done by attachectl reaches the
// running app's answers within a tenth of a second, and its SQLite reads at
// once.
package cache

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/attache/attache/internal/sqlitefile"
)

// ErrTooLarge is returned by Put for a value larger than the store's
// MaxBytes. Nothing is stored.
var ErrTooLarge = errors.New("value larger than the cache")

// ErrInvalidEntry is returned by Put for an entry that cannot be stored as
// given: an empty server or method, an unknown scope, a public entry with a
// partition or an account name, a private entry without a partition, a
// negative TTL, or a StoredAt outside the years 1678 to 2262.
var ErrInvalidEntry = errors.New("invalid cache entry")

// ErrCorrupt is returned by Check when the file fails PRAGMA
// integrity_check or its size accounting does not add up.
var ErrCorrupt = errors.New("cache file corrupt")

// ErrClosed is returned by every method of a Store after Close.
var ErrClosed = errors.New("cache closed")

// ErrDiskFull is wrapped by the error of every write that failed for lack
// of space, and of every write to a store opened read-only on a full disk
// (see Store.ReadOnly). It is sqlitefile.ErrDiskFull.
var ErrDiskFull = sqlitefile.ErrDiskFull

// Key identifies one cached result. Every field is opaque to the store and
// compared byte for byte.
type Key struct {
	// Server is the server's identity: its canonical URL, or a hash of a
	// stdio command line.
	Server string
	// Method is the MCP method, such as "resources/read" or
	// "resources/list".
	Method string
	// Param is the parameter that shapes the result: the uri for reads,
	// the cursor for list pages ("" for page one).
	Param string
}

// String returns the key in a form fit for error messages and logs.
func (k Key) String() string {
	return fmt.Sprintf("%s %s %q", k.Server, k.Method, k.Param)
}

// Scope names the partition of an entry.
type Scope string

// The two scopes. The host maps an absent or unknown cacheScope to Private
// before it calls Put; the store accepts nothing else.
const (
	// Public entries are shared by every account of a server.
	Public Scope = "public"
	// Private entries are seen only through the partition that stored
	// them.
	Private Scope = "private"
)

// Entry is one stored result.
type Entry struct {
	// Key is what the result answers.
	Key Key
	// Scope is the entry's partition.
	Scope Scope
	// Account is the partition of a Private entry, and "" for a Public
	// one: an opaque string naming an authorization context. Get shows a
	// Private entry to this partition alone.
	Account string
	// AccountName labels a Private entry with the name of the account that
	// stored it, for Purge and Stats by name; "" for a Public one. It is
	// not part of the partition: a Put by another name with the same
	// partition replaces the entry and its label.
	AccountName string
	// Value is the stored bytes, a serialized result.
	Value []byte
	// StoredAt is when the result was received. Put fills a zero StoredAt
	// with the store's clock.
	StoredAt time.Time
	// TTL is the server's ttlMs hint, already clamped by the caller.
	TTL time.Duration
	// Size is len(Value), filled by the store.
	Size int64
}

// validate reports why e cannot be stored, wrapping ErrInvalidEntry.
func (e Entry) validate() error {
	var why string
	switch {
	case e.Key.Server == "" || e.Key.Method == "":
		why = "server and method are required"
	case e.Scope == Public && (e.Account != "" || e.AccountName != ""):
		why = "a public entry has no partition and no account name"
	case e.Scope == Private && e.Account == "":
		why = "a private entry needs a partition"
	case e.Scope != Public && e.Scope != Private:
		why = fmt.Sprintf("unknown scope %q", e.Scope)
	case e.TTL < 0:
		why = fmt.Sprintf("negative ttl %v", e.TTL)
	case !time.Unix(0, e.StoredAt.UnixNano()).Equal(e.StoredAt):
		why = fmt.Sprintf("stored at %v, outside the range the file can hold", e.StoredAt)
	default:
		return nil
	}
	return fmt.Errorf("%s: %w", why, ErrInvalidEntry)
}

// clone returns e with a value of its own.
func (e Entry) clone() Entry {
	e.Value = bytes.Clone(e.Value)
	if e.Value == nil {
		e.Value = []byte{}
	}
	return e
}

// Defaults for the zero Options.
const (
	DefaultMaxBytes      = 256 << 20
	DefaultMemoryEntries = 1024
	DefaultMemoryBytes   = 32 << 20
)

// Options configures Open. A nil *Options, and every zero field, means the
// default.
type Options struct {
	// MaxBytes bounds the sum of the stored values; 0 means
	// DefaultMaxBytes (256 MiB).
	MaxBytes int64
	// MemoryEntries bounds the in-memory LRU tier; 0 means
	// DefaultMemoryEntries (1024) and a negative number disables the tier.
	MemoryEntries int
	// MemoryBytes bounds the values held by the in-memory tier; 0 means
	// DefaultMemoryBytes (32 MiB). A value larger than this is served from
	// SQLite only.
	MemoryBytes int64
	// Now is the clock, used for last-access bookkeeping, a zero StoredAt,
	// the name of a file moved aside and the pace of looking for other
	// processes' writes; nil means time.Now.
	Now func() time.Time
	// Logger receives warnings, such as a corrupt file moved aside; nil
	// discards them.
	Logger *slog.Logger
}

// withDefaults returns a copy of o with every zero field filled.
func (o *Options) withDefaults() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxBytes < 0 || r.MemoryBytes < 0 {
		return Options{}, fmt.Errorf("negative size bound (MaxBytes %d, MemoryBytes %d)", r.MaxBytes, r.MemoryBytes)
	}
	if r.MaxBytes == 0 {
		r.MaxBytes = DefaultMaxBytes
	}
	if r.MemoryEntries == 0 {
		r.MemoryEntries = DefaultMemoryEntries
	}
	if r.MemoryBytes == 0 {
		r.MemoryBytes = DefaultMemoryBytes
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
	return r, nil
}
