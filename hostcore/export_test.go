package hostcore

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session is c's live session, for hostcore's own tests only, which set a
// server up or watch a session's life through it: outside them a session
// is hostcore's alone, so that no caller reaches a server past the consent
// gate.
func (c *Conn) Session(ctx context.Context) (*mcp.ClientSession, error) { return c.session(ctx) }

// HostCallTool makes one of the host's own calls (a feature's, through the
// consent gate as CallerHost), for tests of what such a call sends.
func HostCallTool(ctx context.Context, c *Conn, name string, args map[string]any) (*ToolResult, error) {
	return c.hostCallTool(ctx, "test", name, args)
}
