package hostcore

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools are not what Attaché is for: it attaches resources, and runs no
// model's tool calls. The host lists and calls tools only where something
// outside the app needs it, such as the client that the MCP conformance
// suite drives (attachectl conformance-client), whose authorization
// scenarios sign in on a tools/call. Both go through call, so their errors
// carry a kind and the HTTP status of their own request.

// Tool is one entry of tools/list.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
}

// ToolResult is what a tools/call returned.
type ToolResult struct {
	// Text is the result's text content, joined by newlines.
	Text string `json:"text"`
	// IsError is set when the tool reported a failure of its own: the
	// request succeeded, the tool did not.
	IsError bool `json:"isError,omitempty"`
}

// Tools lists every tool of every page. A server that repeats a cursor, or
// lists more than DefaultMaxListItems tools, gets an error rather than
// being asked for ever.
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	seen := map[string]bool{}
	cursor := ""
	for {
		res, err := call(ctx, c, "listing the tools of "+c.Server.Name, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.ListToolsResult, error) {
			return cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		})
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tools {
			if t != nil {
				out = append(out, Tool{Name: t.Name, Title: t.Title, Description: t.Description})
			}
		}
		cursor = res.NextCursor
		switch {
		case cursor == "":
			return out, nil
		case seen[cursor]:
			return nil, protocolError("", "%s: tools/list repeated the cursor %q", c.Server.Name, clip(cursor))
		case len(out) > DefaultMaxListItems:
			return nil, newError(KindUsage, nil, "%s lists more than %d tools", c.Server.Name, DefaultMaxListItems)
		}
		seen[cursor] = true
	}
}

// CallTool calls the tool name with args (nil sends an empty object). A
// tool that reports its own failure is not an error: see ToolResult.IsError.
func (c *Conn) CallTool(ctx context.Context, name string, args map[string]any) (*ToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	res, err := call(ctx, c, "calling the tool "+name+" of "+c.Server.Name, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	})
	if err != nil {
		return nil, err
	}
	var parts []string
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return &ToolResult{Text: strings.Join(parts, "\n"), IsError: res.IsError}, nil
}
