// Package listmemo keeps a connection's listings for the life of its
// session, so that each list request is sent once per connect.
//
// A connection keeps the whole result of each listing it made
// (resources/list, resources/templates/list, tools/list), so that the views
// that show one list (the picker's tabs, the tools panel, the chat's tool
// offer, the lookups of an attachment's annotations) share one request. The
// result is dropped on reconnect (a new session) and when the server says
// the list changed. Concurrent listings of one method wait for the first
// one's result rather than each asking. A listing the consumer stopped
// early, or that failed, is kept by no one; one longer than MaxItems is not
// kept (a million resources stay lazy).
//
// The package does no I/O: the caller lists, and tells the Memo what it got.
package listmemo

import (
	"context"
	"sync"
)

// MaxItems bounds the listing a connection keeps.
const MaxItems = 10_000

// Memo is a connection's kept listings, by method. The zero value is ready
// to use. A Memo is safe for concurrent use.
type Memo struct {
	mu      sync.Mutex
	entries map[string]*entry
	epochs  map[string]uint64 // bumped by Forget: a listing started before it is not kept
}

// entry is one method's kept listing, or the listing under way.
type entry struct {
	ready     chan struct{} // closed once the listing under way ended
	done      bool
	session   int    // the session it was listed on
	partition string // the authorization context it was listed in
	items     any    // []T of the listing
}

// Ticket is a listing the caller makes and then keeps or drops: exactly one
// of Keep or Drop must be called, or the listings of its method that wait
// for it wait until their context ends.
type Ticket struct {
	m      *Memo
	method string
	epoch  uint64
	e      *entry
}

// Take returns the kept listing of method for the session now and
// partition (ok), or a ticket to make it: the caller lists, then calls Keep
// or Drop. It waits for a listing of method under way, until ctx ends.
// session returns the session a listing is kept for: a count of connects
// while connected, -1 (no session to keep it for) otherwise.
func (m *Memo) Take(ctx context.Context, method, partition string, session func() int) (items any, ok bool, t *Ticket, err error) {
	for {
		now := session()
		m.mu.Lock()
		m.init()
		e := m.entries[method]
		switch {
		case e != nil && e.done && e.session == now && e.partition == partition:
			m.mu.Unlock()
			return e.items, true, nil, nil
		case e == nil || e.done:
			e = &entry{ready: make(chan struct{}), session: now, partition: partition}
			m.entries[method] = e
			t := &Ticket{m: m, method: method, epoch: m.epochs[method], e: e}
			m.mu.Unlock()
			return nil, false, t, nil
		}
		m.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, false, nil, ctx.Err()
		}
	}
}

// Keep records items as the listing of the ticket's method on session,
// unless the list changed since the ticket was taken.
func (t *Ticket) Keep(items any, session int) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries[t.method] == t.e {
		if m.epochs[t.method] == t.epoch {
			t.e.done, t.e.items, t.e.session = true, items, session
		} else {
			delete(m.entries, t.method)
		}
	}
	close(t.e.ready)
}

// Drop ends the ticket's listing without keeping it.
func (t *Ticket) Drop() {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries[t.method] == t.e {
		delete(m.entries, t.method)
	}
	close(t.e.ready)
}

// Forget drops the kept listings of methods: the server said they changed.
// A listing under way is let finish, but not kept.
func (m *Memo) Forget(methods ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	for _, method := range methods {
		m.epochs[method]++
		if e := m.entries[method]; e != nil && e.done {
			delete(m.entries, method)
		}
	}
}

// init makes the maps; m.mu is held.
func (m *Memo) init() {
	if m.entries == nil {
		m.entries, m.epochs = map[string]*entry{}, map[string]uint64{}
	}
}
