package mcptest

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The era modes' tools that return resources and structured content, for
// the host's handling of what a tool result carries.
const (
	// DeliverTool returns a text entry, NotesURI embedded for the user
	// only (with DeliveredNotesText, which differs from the body a read
	// returns), ReadmeURI embedded for both audiences, and a resource link
	// to LogoURI.
	DeliverTool = "deliver"
	// MeasureTool declares an outputSchema ({"celsius": number}, required)
	// and returns structuredContent that conforms, or, with
	// {"conform": false}, one whose celsius is a string.
	MeasureTool = "measure"
)

// DeliveredNotesText is the body of the user-only resource DeliverTool
// embeds: a marker that must never reach a model.
const DeliveredNotesText = "for the person's eyes only: the launch code is 0000\n"

// DeliverIntro is DeliverTool's text entry.
const DeliverIntro = "Here are the resources you asked for."

// addEraTools adds DeliverTool and MeasureTool.
func addEraTools(srv *mcp.Server) {
	srv.AddTool(&mcp.Tool{Name: DeliverTool, Description: "Returns resources: embedded (one for the user only) and linked.",
		InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: DeliverIntro},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: NotesURI, MIMEType: "text/plain", Text: DeliveredNotesText},
					Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: ReadmeURI, MIMEType: "text/markdown", Text: ReadmeText},
					Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 1}},
				&mcp.ResourceLink{URI: LogoURI, Name: "logo", Title: "Logo", MIMEType: "image/png", Description: "the test logo"},
			}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: MeasureTool, Description: "Returns a temperature as structured content.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"conform": map[string]any{"type": "boolean", "default": true, "description": "whether the result conforms to the output schema"}}},
		OutputSchema: map[string]any{"type": "object", "required": []any{"celsius"},
			"properties": map[string]any{"celsius": map[string]any{"type": "number"}}},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Conform *bool `json:"conform"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &in)
			var celsius any = 21.5
			if in.Conform != nil && !*in.Conform {
				celsius = "warm"
			}
			return &mcp.CallToolResult{StructuredContent: map[string]any{"celsius": celsius},
				Content: []mcp.Content{&mcp.TextContent{Text: "measured"}}}, nil
		})
}
