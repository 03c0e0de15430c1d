package threengram_test

import (
	"context"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/threengram"
)

// One resolver behind two front doors: the gate hides get_memories from
// the clients that surface resources, by clientInfo name or by the
// experimental capability, and leaves it to everyone else.
func TestFetchToolGate(t *testing.T) {
	s := seededStore(t)
	gate := threengram.ParseFetchToolGate(" Attache ,")
	tests := []struct {
		name   string
		client string
		caps   *mcp.ClientCapabilities
		gate   threengram.FetchToolGate
		hidden bool
	}{
		{"a host on the list", "attache", nil, gate, true},
		{"a host that says it surfaces resources", "other", &mcp.ClientCapabilities{
			Experimental: map[string]any{threengram.SurfacesResourcesCapability: map[string]any{}}}, gate, true},
		{"any other client", "inspector", nil, gate, false},
		{"the gate off", "attache", nil, threengram.FetchToolGate{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			srv := threengram.NewServer(s, &threengram.ServerOptions{Tenant: "acme", FetchGate: tt.gate})
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ss.Close() })
			cs, err := mcp.NewClient(&mcp.Implementation{Name: tt.client}, &mcp.ClientOptions{Capabilities: tt.caps}).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == threengram.FetchTool })
			if listed == tt.hidden {
				t.Errorf("get_memories listed: %v, want hidden %v", listed, tt.hidden)
			}
			if !slices.ContainsFunc(list.Tools, func(tl *mcp.Tool) bool { return tl.Name == "search" }) {
				t.Error("search should always be listed")
			}
			ids := ownIDs(t, cs)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: threengram.FetchTool, Arguments: map[string]any{"ids": ids[:1]}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.hidden {
				t.Errorf("calling get_memories: isError %v, want %v", res.IsError, tt.hidden)
			}
			// The resource is the other front door, open to all.
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: threengram.MemoryURI(ids[0])}); err != nil {
				t.Errorf("reading the memory: %v", err)
			}
		})
	}
}
