package cache

import (
	"container/list"
	"sync"
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

// answer is what account was told for entry.Key.
type answer struct {
	account string
	entry   Entry
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
	if a == nil {
		return Entry{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	el, ok := a.byKey[key][account]
	if !ok {
		return Entry{}, false
	}
	a.order.MoveToFront(el)
	return el.Value.(*answer).entry, true
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
	accounts[account] = a.order.PushFront(&answer{account: account, entry: e})
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
