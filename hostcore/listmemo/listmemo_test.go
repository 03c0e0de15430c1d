package listmemo_test

import (
	"context"
	"testing"

	"github.com/attache/attache/hostcore/listmemo"
)

func session(n int) func() int { return func() int { return n } }

// A kept listing is handed back for its session and partition only.
func TestKeptForItsSessionAndPartition(t *testing.T) {
	ctx := context.Background()
	var m listmemo.Memo
	_, ok, ticket, err := m.Take(ctx, "tools/list", "p", session(1))
	if err != nil || ok || ticket == nil {
		t.Fatalf("first Take = ok %v, ticket %v, err %v; want a ticket", ok, ticket, err)
	}
	ticket.Keep([]string{"a", "b"}, 1)
	items, ok, _, _ := m.Take(ctx, "tools/list", "p", session(1))
	if !ok || len(items.([]string)) != 2 {
		t.Fatalf("second Take = %v, %v; want the kept listing", items, ok)
	}
	for _, tt := range []struct {
		name, partition string
		session         int
	}{{"another partition", "q", 1}, {"a new session", "p", 2}} {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, ticket, _ := m.Take(ctx, "tools/list", tt.partition, session(tt.session))
			if ok || ticket == nil {
				t.Fatalf("Take = ok %v; want a ticket to list again", ok)
			}
			ticket.Drop()
		})
	}
}

// A listing under way when the list changed is not kept.
func TestForgetDuringListing(t *testing.T) {
	ctx := context.Background()
	var m listmemo.Memo
	_, _, ticket, _ := m.Take(ctx, "resources/list", "", session(1))
	m.Forget("resources/list")
	ticket.Keep([]int{1}, 1)
	if _, ok, next, _ := m.Take(ctx, "resources/list", "", session(1)); ok || next == nil {
		t.Fatalf("Take after Forget = ok %v; want a ticket", ok)
	}
}

// A second listing of a method under way waits for the first, until its
// context ends.
func TestWaitsForListingUnderWay(t *testing.T) {
	var m listmemo.Memo
	_, _, ticket, _ := m.Take(context.Background(), "tools/list", "", session(1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := m.Take(ctx, "tools/list", "", session(1)); err != context.Canceled {
		t.Fatalf("Take while listing = %v; want context.Canceled", err)
	}
	got := make(chan any)
	go func() {
		items, _, _, _ := m.Take(context.Background(), "tools/list", "", session(1))
		got <- items
	}()
	ticket.Keep("kept", 1)
	if items := <-got; items != "kept" {
		t.Fatalf("waiting Take = %v; want the first listing's", items)
	}
}
