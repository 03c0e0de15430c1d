package cache

import (
	"container/list"
	"sync"
	"sync/atomic"
	"time"
)

// answers is the in-memory tier: a bounded LRU of the answers Get gave,
// keyed by the key and the asking account. Keying by the asker, not by the
// partition, is what keeps the precedence rule exact without asking SQLite:
// an account's answer may be the public entry only because SQLite had no
// private one for it, and a public entry held alone could not tell.
//
// Every write to a key drops every answer for that key, whoever asked; a
// write that is not by key (a purge, a foreign process) drops by predicate
// or everything. Each drop bumps gen, and promote refuses an answer read
// from SQLite under an older gen, so that a Get racing a Delete cannot put
// the deleted entry back.
//
// A nil *answers is the disabled tier: every method is a no-op. The methods
// are safe for concurrent use. The Entry values held share their Value with
// no one outside; callers clone before handing one out.
type answers struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	order      *list.List                       // front is most recently used; values are *answer
	byKey      map[Key]map[string]*list.Element // key, then asking account
	gen        uint64
}

// answer is what account was told for entry.Key, and, once a caller of
// GetDecoded has decoded it, the decoded form: immutable, shared by every
// later hit, so that a hit costs neither a decode nor a copy of Value.
type answer struct {
	account string
	entry   Entry
	decoded any
	// noted is when a hit on this answer last went into the access log
	// (unix nanoseconds); see accessGrain.
	noted atomic.Int64
}

// accessGrain is how finely reads are timed for least-recently-used
// eviction: a memory hit within this long of the last one noted leaves the
// access log alone, sparing the hit a map update, and so does a read from
// SQLite within this long of the row's last access (see noteRead), sparing
// the process a write. Eviction then orders entries read in the same second
// as it likes.
const accessGrain = time.Second

// needsNote reports whether a hit at now needs noting in the access log, and
// if so takes the note.
func (an *answer) needsNote(now time.Time) bool {
	n := now.UnixNano()
	last := an.noted.Load()
	if d := n - last; d >= 0 && d < int64(accessGrain) {
		return false
	}
	return an.noted.CompareAndSwap(last, n)
}

// newAnswers returns a tier bounded by maxEntries answers and maxBytes of
// values, or nil (the disabled tier) when maxEntries is negative.
func newAnswers(maxEntries int, maxBytes int64) *answers {
	if maxEntries < 0 {
		return nil
	}
	return &answers{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		order:      list.New(),
		byKey:      make(map[Key]map[string]*list.Element),
	}
}

// get returns the answer for key and account and marks it most recently
// used. The returned Value is shared: clone it before handing it out.
func (a *answers) get(key Key, account string) (Entry, bool) {
	e, _, _, ok := a.getDecoded(key, account)
	return e, ok
}

// getDecoded is get, also returning the answer's decoded form (nil if no
// one has decoded it yet) and the answer itself, to pass to setDecoded.
func (a *answers) getDecoded(key Key, account string) (Entry, any, *answer, bool) {
	if a == nil {
		return Entry{}, nil, nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	el, ok := a.byKey[key][account]
	if !ok {
		return Entry{}, nil, nil, false
	}
	a.order.MoveToFront(el)
	an := el.Value.(*answer)
	return an.entry, an.decoded, an, true
}

// setDecoded keeps v, the decoded form of an's Value, beside it. An answer
// dropped meanwhile is no longer reachable, so setting it is harmless.
func (a *answers) setDecoded(an *answer, v any) {
	if a == nil || an == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	an.decoded = v
}

// generation returns the count of drops so far; pass it to promote.
func (a *answers) generation() uint64 {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.gen
}

// promote remembers that account was told e, unless something was dropped
// since gen was read or e is too large for the tier. It reports whether e
// was kept; if so, e.Value now belongs to the tier.
func (a *answers) promote(gen uint64, account string, e Entry) bool {
	return a.promoteDecoded(gen, account, e, nil)
}

// promoteDecoded is promote, keeping decoded (nil: none yet) beside e.
func (a *answers) promoteDecoded(gen uint64, account string, e Entry, decoded any) bool {
	if a == nil || e.Size > a.maxBytes || a.maxEntries == 0 {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if gen != a.gen {
		return false
	}
	if el, ok := a.byKey[e.Key][account]; ok {
		a.remove(el)
	}
	accounts := a.byKey[e.Key]
	if accounts == nil {
		accounts = make(map[string]*list.Element)
		a.byKey[e.Key] = accounts
	}
	accounts[account] = a.order.PushFront(&answer{account: account, entry: e, decoded: decoded})
	a.bytes += e.Size
	for a.order.Len() > a.maxEntries || a.bytes > a.maxBytes {
		a.remove(a.order.Back())
	}
	return true
}

// remove forgets one answer. The caller holds mu.
func (a *answers) remove(el *list.Element) {
	an := a.order.Remove(el).(*answer)
	accounts := a.byKey[an.entry.Key]
	delete(accounts, an.account)
	if len(accounts) == 0 {
		delete(a.byKey, an.entry.Key)
	}
	a.bytes -= an.entry.Size
}

// dropKeys forgets every answer for the keys, whoever asked.
func (a *answers) dropKeys(keys ...Key) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gen++
	for _, k := range keys {
		for _, el := range a.byKey[k] {
			a.remove(el)
		}
	}
}

// dropWhere forgets every answer whose entry matches.
func (a *answers) dropWhere(match func(Entry) bool) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gen++
	for el := a.order.Front(); el != nil; {
		next := el.Next()
		if match(el.Value.(*answer).entry) {
			a.remove(el)
		}
		el = next
	}
}

// clear forgets every answer.
func (a *answers) clear() {
	a.dropWhere(func(Entry) bool { return true })
}

// len returns the number of answers held.
func (a *answers) len() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.order.Len()
}
