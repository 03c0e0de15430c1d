package hostcore

import (
	"encoding/json"
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
	// Rounds are the multi round-trip rounds before the final result
	// (mrtr.go): what the server asked, and what the host answered.
	Rounds []InputRound `json:"rounds,omitempty"`
}
