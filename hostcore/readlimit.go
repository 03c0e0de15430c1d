package hostcore

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
// at most ReadsPerConn of them are in flight, and the rest of the total
// is left to the other servers. Cache hits take no slot.
const (
	// DefaultReadsPerConn bounds the reads in flight to one connection.
	DefaultReadsPerConn = 4
	// DefaultReadsInAll bounds the reads in flight to all servers.
	DefaultReadsInAll = 16
)

// readGate hands out read slots. It is safe for concurrent use.
type readGate struct {
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

func newReadGate(perConn, total int) *readGate {
	if perConn <= 0 {
		perConn = DefaultReadsPerConn
	}
	if total <= 0 {
		total = DefaultReadsInAll
	}
	return &readGate{perConn: perConn, total: make(chan struct{}, total), conns: map[string]*connSlots{}}
}

// acquire waits for a slot of conn's and one of the total, in that order,
// until ctx ends, and returns the function that gives both back. A slot
// that is free is taken whatever ctx says.
func (g *readGate) acquire(ctx context.Context, conn string) (release func(), err error) {
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
func (g *readGate) join(conn string) *connSlots {
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
func (g *readGate) leave(conn string, cs *connSlots) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if cs.users--; cs.users == 0 {
		delete(g.conns, conn)
	}
}

// readServerGated is ReadServer once the read has its slots (see
// readGate): waiting for them counts against ctx like the read itself.
func (c *Conn) readServerGated(ctx context.Context, uri string) (*ReadResult, error) {
	release, err := c.host.reads.acquire(ctx, c.identity+"\x00"+c.Account.Name)
	if err != nil {
		return nil, classify(err, "reading "+uri, uri, 0)
	}
	defer release()
	return c.ReadServer(ctx, uri)
}
