package threengram_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/threengram"
)

// Every tool says what it does, as a client sees it in tools/list: the
// reads are read-only; remember only adds; revise and archive change a
// memory that exists (destructive in the protocol's sense), archive being
// idempotent; none reaches outside the store. A tool left without hints
// would count as destructive and open-world, the protocol's defaults.
func TestToolHints(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	srv := threengram.NewServer(seededStore(t), &threengram.ServerOptions{Tenant: "acme"})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hints"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct{ ReadOnly, Destructive, Idempotent, OpenWorld bool }
	got := map[string]hints{}
	for _, tl := range list.Tools {
		a := tl.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tl.Name)
			continue
		}
		got[tl.Name] = hints{a.ReadOnlyHint, !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint),
			a.IdempotentHint, a.OpenWorldHint == nil || *a.OpenWorldHint}
	}
	want := map[string]hints{
		"search":       {ReadOnly: true},
		"get_memories": {ReadOnly: true},
		"briefing":     {ReadOnly: true},
		"remember":     {},
		"revise":       {Destructive: true},
		"archive":      {Destructive: true, Idempotent: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool hints (-want +got):\n%s", diff)
	}
}
