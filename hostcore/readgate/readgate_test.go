package readgate

import (
	"context"
	"testing"
)

// The gate's rules, slot by slot: a connection's reads beyond its slots
// wait holding none of the total, and the total caps every connection's
// reads together. A context already ended tells "would wait" from "got it".
func TestReadGate(t *testing.T) {
	g := New(2, 3)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	got := func(conn string) func() {
		t.Helper()
		release, err := g.Acquire(ended, conn)
		if err != nil {
			t.Fatalf("a read of %s waited; want a slot", conn)
		}
		return release
	}
	waits := func(conn string) {
		t.Helper()
		if release, err := g.Acquire(ended, conn); err == nil {
			release()
			t.Fatalf("a read of %s got a slot; want it to wait", conn)
		}
	}
	a1, a2 := got("slow"), got("slow")
	waits("slow")     // its own two are taken
	b1 := got("fast") // the slow server's waiting read holds none of the total
	waits("other")    // three in all
	waits("fast")
	a1()
	c1 := got("other") // the freed slot of the total is anyone's
	waits("slow")      // slow has a slot of its own again, but the total is full
	a2()
	b1()
	c1()
	if len(g.conns) != 0 || len(g.total) != 0 {
		t.Errorf("after every release: %d connections' slots kept, %d of the total held", len(g.conns), len(g.total))
	}
}
