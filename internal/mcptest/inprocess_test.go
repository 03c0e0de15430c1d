package mcptest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// A mode served in-process answers a go-sdk client as over stdio; Drop
// hangs it up, and the next Connect starts it anew. A mode served over
// HTTP only is refused.
func TestModeTransport(t *testing.T) {
	mt, err := mcptest.NewModeTransport(mcptest.ModeV2025Nov, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := client.Connect(ctx, mt, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcptest.ReadmeURI})
	if err != nil || len(res.Contents) != 1 || cs.InitializeResult().ProtocolVersion != mcptest.Version2025Nov {
		t.Fatalf("read in-process: %+v, %v", res, err)
	}
	if n := mt.Drop(); n != 1 {
		t.Errorf("Drop hung up %d modes; want 1", n)
	}
	cs.Wait() // returns: the mode hung up
	again, err := client.Connect(ctx, mt, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcptest.ReadmeURI}); err != nil || mt.Connects() != 1 {
		t.Errorf("after Drop, a new connect: %v, %d running", err, mt.Connects())
	}
	if _, err := mcptest.NewModeTransport(mcptest.ModeUnauthorized, nil); !errors.Is(err, mcptest.ErrUnsupportedTransport) {
		t.Errorf("an HTTP-only mode in-process: %v; want refused", err)
	}
}

// A go-sdk server in-process gets a session per Connect; Drop ends them.
func TestServerTransport(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	st := mcptest.NewServerTransport(srv)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	var sessions []*mcp.ClientSession
	for range 2 {
		cs, err := client.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, cs)
	}
	if st.Connects() != 2 || st.Drop() != 2 {
		t.Fatalf("%d connects; want 2, both dropped", st.Connects())
	}
	for _, cs := range sessions {
		cs.Wait() // returns: the server hung up
	}
}
