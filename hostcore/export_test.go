package hostcore

import "context"

// HostCallTool makes one of the host's own calls (a feature's, through the
// consent gate as CallerHost), for tests of what such a call sends.
func HostCallTool(ctx context.Context, c *Conn, name string, args map[string]any) (*ToolResult, error) {
	return c.hostCallTool(ctx, "test", name, args)
}
