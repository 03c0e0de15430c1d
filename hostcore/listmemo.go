package hostcore

import (
	"context"
	"sync"
)

// Each list request is sent once per connect. A connection keeps the whole
// result of each listing it made (resources/list, resources/templates/list,
// tools/list) for the life of its session, so that the views that show one
// list (the picker's tabs, the tools panel, the chat's tool offer, the
// lookups of an attachment's annotations) share one request. The result is
// dropped on reconnect (a new session) and when the server says the list
// changed. Concurrent listings of one method wait for the first one's
// result rather than each asking. A listing the consumer stopped early, or
// that failed, is kept by no one; one longer than maxMemoItems is not kept
// (a million resources stay lazy: see paginate).

// maxMemoItems bounds the listing a connection keeps.
const maxMemoItems = 10_000

// listMemo is a connection's kept listings, by method.
type listMemo struct {
	mu      sync.Mutex
	entries map[string]*memoEntry
	epochs  map[string]uint64 // bumped by forget: a listing started before it is not kept
}

// memoEntry is one method's kept listing, or the listing under way.
type memoEntry struct {
	ready     chan struct{} // closed once the listing under way ended
	done      bool
	connects  int    // the session (ConnInfo.Connects) it was listed on
	partition string // the authorization context it was listed in
	items     any    // []T of the listing
}

// memoTicket is a listing the caller makes and then keeps or abandons.
type memoTicket struct {
	m      *listMemo
	method string
	epoch  uint64
	e      *memoEntry
}

// take returns the kept listing of method for the session now (see
// Conn.sessionNow) and partition (ok), or a ticket to make it: the caller
// lists, then calls keep or drop. It waits for a listing of method under
// way, until ctx ends.
func (m *listMemo) take(ctx context.Context, method, partition string, session func() int) (items any, ok bool, t *memoTicket, err error) {
	for {
		connects := session()
		m.mu.Lock()
		if m.entries == nil {
			m.entries, m.epochs = map[string]*memoEntry{}, map[string]uint64{}
		}
		e := m.entries[method]
		switch {
		case e != nil && e.done && e.connects == connects && e.partition == partition:
			m.mu.Unlock()
			return e.items, true, nil, nil
		case e == nil || e.done:
			e = &memoEntry{ready: make(chan struct{}), connects: connects, partition: partition}
			m.entries[method] = e
			t := &memoTicket{m: m, method: method, epoch: m.epochs[method], e: e}
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

// keep records items as the listing of the ticket's method on session
// connects, unless the list changed since the ticket was taken.
func (t *memoTicket) keep(items any, connects int) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries[t.method] == t.e {
		if m.epochs[t.method] == t.epoch {
			t.e.done, t.e.items, t.e.connects = true, items, connects
		} else {
			delete(m.entries, t.method)
		}
	}
	close(t.e.ready)
}

// drop ends the ticket's listing without keeping it.
func (t *memoTicket) drop() {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries[t.method] == t.e {
		delete(m.entries, t.method)
	}
	close(t.e.ready)
}

// forget drops the kept listings of methods: the server said they changed.
// A listing under way is let finish, but not kept.
func (m *listMemo) forget(methods ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries, m.epochs = map[string]*memoEntry{}, map[string]uint64{}
	}
	for _, method := range methods {
		m.epochs[method]++
		if e := m.entries[method]; e != nil && e.done {
			delete(m.entries, method)
		}
	}
}

// sessionNow is the session a listing is kept for: the connection's count
// of connects while it is connected, -1 (no session to keep it for)
// otherwise.
func (c *Conn) sessionNow() int {
	info := c.Info()
	if info.State != StateConnected {
		return -1
	}
	return info.Connects
}
