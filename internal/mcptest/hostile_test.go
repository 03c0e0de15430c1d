package mcptest_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// TestHostileStringsReachTheClient checks that the escapes survive the wire
// (JSON carries ESC and U+009B as they are), so a host's test of its
// sanitizer tests something.
func TestHostileStringsReachTheClient(t *testing.T) {
	eachTransport(t, mcptest.ModeHostile, nil, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := testContext(t)
		info := cs.InitializeResult()
		if !strings.Contains(info.ServerInfo.Name, mcptest.HostileOSC) || !strings.Contains(info.Instructions, mcptest.HostileOSC) {
			t.Errorf("serverInfo %+v, instructions %q: want the escapes", info.ServerInfo, info.Instructions)
		}
		rs, err := cs.ListResources(ctx, nil)
		if err != nil || len(rs.Resources) != 1 {
			t.Fatalf("list: %v %v", rs, err)
		}
		if r := rs.Resources[0]; r.Name != mcptest.HostileName || r.Description != mcptest.HostileLong() ||
			len(r.Description) != mcptest.HostileLongLen {
			t.Errorf("resource %+v", r)
		}
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcptest.HostileURI})
		if err != nil || got.Contents[0].Text != mcptest.HostileBody {
			t.Errorf("read: %v %v", got, err)
		}
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://hostile/other"})
		if err == nil || !strings.Contains(err.Error(), mcptest.HostileError) {
			t.Errorf("read of another uri: %v; want %q", err, mcptest.HostileError)
		}
	})
}

func TestCursorCycleGoesRound(t *testing.T) {
	eachTransport(t, mcptest.ModeCycle, nil, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := testContext(t)
		var cursors []string
		cursor := ""
		for range 4 {
			res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			cursor = res.NextCursor
			cursors = append(cursors, cursor)
		}
		want := []string{mcptest.CycleCursorA, mcptest.CycleCursorB, mcptest.CycleCursorA, mcptest.CycleCursorB}
		if strings.Join(cursors, ",") != strings.Join(want, ",") {
			t.Errorf("cursors %v; want %v", cursors, want)
		}
		if _, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: "nope"}); err == nil {
			t.Error("an unknown cursor was accepted")
		}
	})
}
