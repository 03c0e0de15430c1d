package hostcore

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// Attaché attaches resources; tools are the model's. The host lists and
// calls them for the model loop (see Chat), the comparison lab, attachectl
// tools and call, its own memory features, and the client that the MCP
// conformance suite drives (attachectl conformance-client), whose
// authorization scenarios sign in on a tools/call. Every call runs on a
// Decision of the consent gate (see consent.go), and goes through call, so
// its errors carry a kind and the HTTP status of its own request.

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
	// Content is every content entry, in order, in the host's terms (see
	// toolresult.go).
	Content []toolcall.Content `json:"content,omitempty"`
	// Rounds are the multi round-trip rounds before the final result
	// (mrtr.go): what the server asked, and what the host answered.
	Rounds []InputRound `json:"rounds,omitempty"`
}

// Entry returns the connection's server entry and account, as the
// consent gate knows a connection (consent.Conn).
func (c *Conn) Entry() (config.ServerConfig, config.Account) { return c.Server, c.Account }

// CallTool runs the call the consent gate decided on (Scope.Decide), on
// this connection, with the arguments the gate approved; a decision runs
// once. Without the gate's approval nothing is sent, and the error is of
// kind not approved. A tool that reports its own failure is not an error:
// see ToolResult.IsError.
func (c *Conn) CallTool(ctx context.Context, d *consent.Permit) (*ToolResult, error) {
	args, err := d.Take(c)
	if err != nil {
		return nil, err
	}
	return c.callTool(ctx, d.Tool, args)
}

// hostCallTool makes one of the host's own calls (see CallerHost), through
// the gate, which records it.
func (c *Conn) hostCallTool(ctx context.Context, feature, name string, args map[string]any) (*ToolResult, error) {
	return c.CallTool(ctx, c.host.hostCall(c, feature, name, args))
}

// callTool sends tools/call for name with args (nil sends an empty
// object), on the consent gate's decision (see CallTool), with the
// Mcp-Param-* headers its definition asks for. An input_required result
// is answered and sent again (mrtr.go); the rounds are in the result.
func (c *Conn) callTool(ctx context.Context, name string, args map[string]any) (*ToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	op := "calling the tool " + name + " of " + c.Server.Name
	headers, err := c.toolHeaders(ctx, op, name, args)
	if err != nil {
		return nil, err
	}
	ctx = toolcall.WithParamHeaders(ctx, headers)
	res, rounds, err := multiRound(ctx, c, op, func(ctx context.Context, answers mcp.InputResponseMap, state string) (*mcp.CallToolResult, error) {
		return call(ctx, c, op, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args, InputResponses: answers, RequestState: state})
		})
	})
	if err != nil {
		return nil, err
	}
	out := resultOf(res)
	out.Rounds = rounds
	return out, nil
}

// toolOf converts a go-sdk tool to the host's.
func toolOf(t *mcp.Tool) toolcall.Tool {
	out := toolcall.Tool{Name: t.Name, Title: t.Title, Description: t.Description}
	if t.InputSchema != nil {
		out.InputSchema, _ = json.Marshal(t.InputSchema)
	}
	if t.OutputSchema != nil {
		out.OutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	// The protocol's defaults, for a tool that says nothing.
	out.Destructive, out.OpenWorld = true, true
	out.Unstated = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
	if a := t.Annotations; a != nil {
		out.ReadOnly = a.ReadOnlyHint
		out.Destructive = a.DestructiveHint == nil || *a.DestructiveHint
		out.Idempotent = a.IdempotentHint
		out.OpenWorld = a.OpenWorldHint == nil || *a.OpenWorldHint
		out.Unstated = unstatedHints(a)
		if out.Title == "" {
			out.Title = a.Title
		}
	}
	if out.ReadOnly {
		out.Destructive, out.Idempotent = false, true
	}
	return out
}

// unstatedHints names the hints a left out. go-sdk decodes an absent
// readOnlyHint or idempotentHint and false alike, so those two count as
// stated once the server sent annotations.
func unstatedHints(a *mcp.ToolAnnotations) []string {
	var out []string
	if a.DestructiveHint == nil {
		out = append(out, "destructiveHint")
	}
	if a.OpenWorldHint == nil {
		out = append(out, "openWorldHint")
	}
	return out
}
