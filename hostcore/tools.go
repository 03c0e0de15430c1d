package hostcore

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Attaché attaches resources; tools are the model's. The host lists and
// calls them for the model loop (see Chat, where every call waits for the
// person's approval), for attachectl tools and call, and for the client
// that the MCP conformance suite drives (attachectl conformance-client),
// whose authorization scenarios sign in on a tools/call. Both go through
// call, so their errors carry a kind and the HTTP status of their own
// request.

// Tool is one entry of tools/list.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments, as the
	// server sent it; the model is given it as is.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// ReadOnly is the server's readOnlyHint: a hint to show the person
	// when asking to approve a call, never a reason to skip asking.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// ToolResult is what a tools/call returned.
type ToolResult struct {
	// Text is the result's text content, joined by newlines.
	Text string `json:"text"`
	// IsError is set when the tool reported a failure of its own: the
	// request succeeded, the tool did not.
	IsError bool `json:"isError,omitempty"`
	// Structured is the result's structuredContent, if any.
	Structured json.RawMessage `json:"structuredContent,omitempty"`
	// Omitted describes each content entry that is not text (an image, a
	// resource link), in order: "image/png, 1,234 bytes".
	Omitted []string `json:"omitted,omitempty"`
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
				out = append(out, toolOf(t))
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
	out := &ToolResult{IsError: res.IsError}
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		} else {
			out.Omitted = append(out.Omitted, describeContent(ct))
		}
	}
	out.Text = strings.Join(parts, "\n")
	if res.StructuredContent != nil {
		out.Structured, _ = json.Marshal(res.StructuredContent)
	}
	return out, nil
}
