package pack

import (
	"sync"
	"unsafe"
	"weak"
)

// itemMemo remembers, by item, what measuring it with the default counter
// found: its tokens and its parsed lastModified. Ranking the same 10,000
// items again then costs a lookup an item, where finding a count in the
// token memo costs hashing the item's fields and parsing its date.
//
// An entry is keyed by the item's address and holds the strings it was
// measured from (the item's own: no bytes are copied). It is used only
// while the item's strings read the same (itemText.same, which costs no
// pass over a body when it is the same string), so a changed item, or
// another item at the address of one the collector freed, is measured
// afresh. An entry keeps the strings of an item changed since alive until
// the item is measured again; a weak pointer to the item tells which
// entries belong to items that are gone, and those are swept out, with
// what they held, once the memo has doubled since the last sweep.
//
// An item is remembered the second time it is measured: an item ranked
// once (a send builds its items afresh) costs a note of its address, not
// a weak pointer and a copy of its contents' headers.
//
// It is safe for concurrent use.
type itemMemo struct {
	mu      sync.RWMutex
	byAddr  map[uintptr]*itemMeasure
	sweepAt int
	once    map[uintptr]struct{} // the addresses of items measured once, not remembered yet
}

// onceMax bounds itemMemo.once: past it, the notes start again.
const onceMax = 1 << 15

// itemMeasure is what itemMemo keeps of an item.
type itemMeasure struct {
	item   weak.Pointer[Item]
	from   itemText
	sec    int64
	nsec   int32
	tokens int // -1: not counted (the item was held back or unreadable)
}

// defaultItems is the memo of the items measured with DefaultTokenCounter.
var defaultItems = &itemMemo{byAddr: map[uintptr]*itemMeasure{}, sweepAt: 1024, once: map[uintptr]struct{}{}}

// find returns what was measured of it, or nil.
func (m *itemMemo) find(it *Item) *itemMeasure {
	m.mu.RLock()
	e := m.byAddr[uintptr(unsafe.Pointer(it))]
	m.mu.RUnlock()
	if e == nil || !e.from.same(it) {
		return nil
	}
	return e
}

// store remembers e as what was measured of it, if it was measured before.
func (m *itemMemo) store(it *Item, e *itemMeasure) {
	addr := uintptr(unsafe.Pointer(it))
	m.mu.Lock()
	_, twice := m.once[addr]
	if !twice {
		if len(m.once) >= onceMax {
			clear(m.once)
		}
		m.once[addr] = struct{}{}
		m.mu.Unlock()
		return
	}
	delete(m.once, addr)
	m.mu.Unlock()
	e.item, e.from = weak.Make(it), textOf(it)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byAddr[addr] = e
	if len(m.byAddr) < m.sweepAt {
		return
	}
	for addr, e := range m.byAddr {
		if e.item.Value() == nil {
			delete(m.byAddr, addr)
		}
	}
	m.sweepAt = max(2*len(m.byAddr), 1024)
}
