// Package readgate bounds the reads a host asks servers for at once, per
// connection and in all (hostcore's Host holds one Gate).
package readgate

import (
	"context"
	"sync"
)

// Reads the host asks servers for at once are bounded per connection (a
// server as one account reaches it: for stdio, one process) and in all.
// Bounding them only in all, as a single limit of eight once did, let one
// slow server take every slot, and every other server's reads waited on
// it. A read waits for its connection's slot before it takes one of the
// total, so the reads waiting on a slow server hold none of the total:
// at most DefaultPerConn (or the Gate's own bound) of them are in flight, and the rest of the total
// is left to the other servers. Cache hits take no slot.
const (
	// DefaultPerConn bounds the reads in flight to one connection.
	DefaultPerConn = 4
	// DefaultInAll bounds the reads in flight to all servers.
	DefaultInAll = 16
)

// Gate hands out read slots. It is safe for concurrent use.
type Gate struct {
	perConn int
	total   chan struct{}

	mu    sync.Mutex
	conns map[string]*connSlots
}

// connSlots are one connection's slots, and how many reads hold or wait
// for them (the entry goes when none does).
type connSlots struct {
	slots chan struct{}
	users int
}

// New returns a Gate of perConn slots per connection and total in all;
// 0 means DefaultPerConn and DefaultInAll.
func New(perConn, total int) *Gate {
	if perConn <= 0 {
		perConn = DefaultPerConn
	}
	if total <= 0 {
		total = DefaultInAll
	}
	return &Gate{perConn: perConn, total: make(chan struct{}, total), conns: map[string]*connSlots{}}
}

// Acquire waits for a slot of conn's and one of the total, in that order,
// until ctx ends, and returns the function that gives both back. A slot
// that is free is taken whatever ctx says.
func (g *Gate) Acquire(ctx context.Context, conn string) (release func(), err error) {
	cs := g.join(conn)
	if err := take(ctx, cs.slots); err != nil {
		g.leave(conn, cs)
		return nil, err
	}
	if err := take(ctx, g.total); err != nil {
		<-cs.slots
		g.leave(conn, cs)
		return nil, err
	}
	return func() {
		<-g.total
		<-cs.slots
		g.leave(conn, cs)
	}, nil
}

// take takes a slot of slots: at once if one is free, else once one is,
// unless ctx ends first.
func take(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// join returns conn's slots, counting one more user.
func (g *Gate) join(conn string) *connSlots {
	g.mu.Lock()
	defer g.mu.Unlock()
	cs := g.conns[conn]
	if cs == nil {
		cs = &connSlots{slots: make(chan struct{}, g.perConn)}
		g.conns[conn] = cs
	}
	cs.users++
	return cs
}

// leave counts one user fewer of conn's slots, forgetting them at none.
func (g *Gate) leave(conn string, cs *connSlots) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if cs.users--; cs.users == 0 {
		delete(g.conns, conn)
	}
}
