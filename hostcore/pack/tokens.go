package pack

import (
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/attache/attache/hostcore/pack/cl100k"
)

// TokenCounter counts the tokens a model would be charged for a text.
// Implementations must be safe for concurrent use: a UI re-ranks while reads
// land on other goroutines.
type TokenCounter interface {
	Count(s string) int
}

// TokenEncoding names the tiktoken encoding behind DefaultTokenCounter.
//
// The host does not know which model will read the context, and the
// tokenizers of most models are not public, so it needs a stand-in that
// rarely undercounts. cl100k_base (GPT-4) counts about as many tokens as
// o200k_base (GPT-4o) on English prose and code, and more on other languages
// (about 16% more on the French seed documents), so a budget measured with it
// errs on the safe side; it also loads in about half the time and memory of
// o200k_base (a 1.7 MB table against 3.6 MB).
//
// The counter is package cl100k: it counts exactly as
// github.com/pkoukk/tiktoken-go does with the table of
// github.com/pkoukk/tiktoken-go-loader (its tests check both), from a table
// compiled into the binary in the form its lookups read, so counting never
// touches the network and a process's first count loads nothing. It counts
// about 4 MB of text a second; the memo below makes re-ranking bodies
// already counted cost a hash.
const TokenEncoding = "cl100k_base"

// memoSize bounds the default counter's memo: enough for every item of a
// large conversation (the 10,000 attachments) plus room for edits,
// at under 100 bytes an entry.
const memoSize = 16 << 10

var defaultCounter struct {
	once    sync.Once
	counter *memoCounter
}

// DefaultTokenCounter returns the counter Rank uses when RankOptions.Tokens
// is nil: tiktoken's TokenEncoding, from a table embedded in the binary (it
// never touches the network), behind a memo of about the 16,384 texts and
// items counted most recently. The memo is shared by the whole process, so
// re-ranking bodies already counted costs a hash and a map lookup each
// (a Ranker also remembers, by item, what it measured; see Ranker). The
// memo keeps no text, only hashes and counts. Nothing is loaded, by this
// call or the first count: the table is read where it lies in the binary
// (see package cl100k), and the first count costs what a later one does,
// plus about 0.1 ms to compile the split pattern. It is safe for
// concurrent use.
func DefaultTokenCounter() TokenCounter {
	defaultCounter.once.Do(func() {
		// EncodeOrdinary counts special-token text ("<|endoftext|>") as
		// plain text: a body is data, never control.
		defaultCounter.counter = newMemoCounter(func(s string) int {
			tableLoaded.Store(true)
			return cl100k.Count(s)
		}, memoSize)
	})
	return defaultCounter.counter
}

// tableLoaded is set once the default counter first counts a text.
var tableLoaded atomic.Bool

// TableLoaded reports whether this process has counted (or is counting) a
// text with DefaultTokenCounter's table: false until a count has had to
// be made with it. A process whose every count was stored (see
// CountStore) never reads the table; the first-count benchmark and the
// CLI's tests check that.
func TableLoaded() bool { return tableLoaded.Load() }

// memoCounter remembers up to max counts, keyed by a 64-bit hash of the
// text and its length (no text is kept). Two texts of the same length
// colliding on a 64-bit hash among 16k entries is a chance of about one in
// 10^11, and would only misstate a count.
//
// When full it evicts with the CLOCK algorithm, an approximation of least
// recently used: a hit only marks its slot used, and a hand sweeping the
// slots evicts the first one not used since the hand last passed. A hit thus
// costs a map lookup, not a list update.
//
// It is safe for concurrent use. Hits share a read lock (the used mark is
// atomic), so goroutines counting one ranking do not queue on each other.
// No lock is held while counting, so two goroutines may count the same new
// text at once; both get the same answer.
type memoCounter struct {
	count func(string) int
	seed  maphash.Seed
	max   int

	mu    sync.RWMutex
	slot  map[memoKey]int // index in slots
	slots []memoSlot
	hand  int
}

type memoKey struct {
	sum uint64
	n   int
}

type memoSlot struct {
	key    memoKey
	tokens int
	used   atomic.Bool
}

func newMemoCounter(count func(string) int, max int) *memoCounter {
	return &memoCounter{
		count: count,
		seed:  maphash.MakeSeed(),
		max:   max,
		slot:  make(map[memoKey]int, max),
	}
}

// Count returns the memoized count of s, counting it on a miss.
func (m *memoCounter) Count(s string) int {
	key := memoKey{maphash.String(m.seed, s), len(s)}
	if tokens, ok := m.lookup(key); ok {
		return tokens
	}
	tokens := m.count(s)
	m.store(key, tokens)
	return tokens
}

func (m *memoCounter) lookup(key memoKey) (tokens int, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	i, ok := m.slot[key]
	if !ok {
		return 0, false
	}
	m.slots[i].used.Store(true)
	return m.slots[i].tokens, true
}

func (m *memoCounter) store(key memoKey, tokens int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.slot[key]; ok {
		return
	}
	if len(m.slots) < m.max {
		m.slot[key] = len(m.slots)
		m.slots = append(m.slots, memoSlot{key: key, tokens: tokens})
		return
	}
	for m.slots[m.hand].used.Swap(false) {
		m.hand = (m.hand + 1) % m.max
	}
	s := &m.slots[m.hand]
	delete(m.slot, s.key)
	m.slot[key] = m.hand
	s.key, s.tokens = key, tokens
	m.hand = (m.hand + 1) % m.max
}

// len reports how many counts the memo holds.
func (m *memoCounter) len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.slots)
}

// Tokens is what it costs as sent, exactly as Rank counts an item it
// packs (the decision's Tokens) when no model is chosen yet: the tokens of
// its section's Markdown plus each image's EitherVision estimate, counted
// with counter (nil: DefaultTokenCounter). It lets a holder of a body it
// just read say what the body costs before anything is ranked.
func Tokens(it *Item, counter TokenCounter) int {
	return itemTokens(it, meterOf(&RankOptions{Tokens: counter}))
}

// itemTokens is what an item costs as sent: the tokens of its section's
// Markdown plus each image's estimate under m's Vision. A count kept in
// it.Counts by the counter's Name is used rather than counted (see
// counted). With a memoCounter the memo, consulted first, is keyed by a
// hash of everything that Markdown is rendered from, so a hit reads each
// body once to hash it and builds nothing: that is what makes re-ranking
// 10,000 read bodies cheap. An item with an image has its images' headers
// read each time (a few bytes each), since their sizes and verdicts are
// part of what its Markdown says.
func itemTokens(it *Item, m meter) int {
	var parts []Part // decided only for an item with an image
	images := 0
	if hasImage(it.Contents) {
		parts = partsOf(it.Contents, m.vision)
		for _, p := range parts {
			images += p.Tokens
		}
	}
	md := func() string {
		if parts == nil {
			return sectionOf(it, m.vision).Markdown()
		}
		return sectionWith(it, parts).Markdown()
	}
	mc, ok := m.counter.(*memoCounter)
	if !ok {
		return counted(it, counterName(m.counter), md(), m.counter.Count) + images
	}
	key := mc.itemKey(it, parts)
	tokens, ok := mc.lookup(key)
	if !ok {
		tokens = counted(it, mc.Name(), md(), mc.count)
		mc.store(key, tokens)
	}
	return tokens + images
}

// Name is DefaultCounterName: the default counter's counts are kept.
func (m *memoCounter) Name() string { return DefaultCounterName }

// hasImage reports whether an entry is a blob of an image type.
func hasImage(cs []Content) bool {
	for _, c := range cs {
		if c.IsBlob && imageType(c.MIMEType) {
			return true
		}
	}
	return false
}

// itemKey hashes the fields an item's section is rendered from: each field
// is hashed on its own and the hashes are folded in order (see fold), so
// that fields never run into each other and a long body is hashed in one
// pass; and, for an item with images, how each blob was decided (parts),
// since an image's line says its size or why it is not sent. Folding the
// fields' hashes, rather than writing them into a maphash.Hash, saves a
// buffer copy a field: a tenth of a ranking's instructions (callgrind).
// Its n is negative, so it never equals the key of a text.
func (m *memoCounter) itemKey(it *Item, parts []Part) memoKey {
	h, n := uint64(0), 0
	field := func(s string) {
		h = fold(h, maphash.String(m.seed, s))
		n += len(s)
	}
	field(it.Server)
	field(it.Account)
	field(it.URI)
	field(it.Annotations.LastModified)
	for i, c := range it.Contents {
		field(c.URI)
		field(c.MIMEType)
		switch {
		case !c.IsBlob:
			field(c.Text)
		case parts != nil:
			// A blob is rendered from its size, type and verdict, never its bytes.
			p := parts[i]
			field(string(p.Kind))
			field(p.MIMEType)
			field(p.Summary)
			h = fold(fold(fold(h, uint64(p.Size)), uint64(p.Width)), uint64(p.Height))
		default:
			h = fold(h, uint64(len(c.Blob)))
		}
		h = fold(h, uint64(boolByte(c.IsBlob)))
	}
	return memoKey{fold(h, uint64(n)), -1 - n}
}

// fold mixes x into the hash h so that the result depends on the order of
// what was folded: a rotation and a multiplication by an odd constant (a
// bijection of h for each x), then the 64-bit finalizer of MurmurHash3.
func fold(h, x uint64) uint64 {
	h = (bits.RotateLeft64(h, 27) ^ x) * 0x9e3779b97f4a7c15
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
