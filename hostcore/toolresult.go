package hostcore

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// A tool result's content entries are toolcall's (toolcall.Content); the
// host converts go-sdk's into them, and the result says what of them
// reaches the model by toolcall's rules.

// toolContentOf converts one go-sdk content entry to the host's.
func toolContentOf(ct mcp.Content) toolcall.Content {
	switch c := ct.(type) {
	case *mcp.TextContent:
		return toolcall.Content{Kind: toolcall.ContentText, Text: c.Text, Annotations: annotationsOf(c.Annotations)}
	case *mcp.ImageContent:
		return toolcall.Content{Kind: toolcall.ContentImage, MIMEType: c.MIMEType, Data: c.Data, Annotations: annotationsOf(c.Annotations)}
	case *mcp.AudioContent:
		return toolcall.Content{Kind: toolcall.ContentAudio, MIMEType: c.MIMEType, Data: c.Data, Annotations: annotationsOf(c.Annotations)}
	case *mcp.ResourceLink:
		return toolcall.Content{Kind: toolcall.ContentLink, URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
			MIMEType: c.MIMEType, Size: c.Size, Annotations: annotationsOf(c.Annotations)}
	case *mcp.EmbeddedResource:
		out := toolcall.Content{Kind: toolcall.ContentResource, Annotations: annotationsOf(c.Annotations)}
		if r := c.Resource; r != nil {
			out.Resource = &pack.Content{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob, IsBlob: r.Blob != nil}
		}
		return out
	}
	return toolcall.Content{Kind: toolcall.ContentOther, Description: fmt.Sprintf("%T", ct)}
}

// annotationsOf converts go-sdk's annotations of a content entry.
func annotationsOf(a *mcp.Annotations) pack.Annotations {
	if a == nil {
		return pack.Annotations{}
	}
	out := pack.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, string(r))
	}
	if a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return out
}

// resultOf converts a tools/call result to the host's.
func resultOf(res *mcp.CallToolResult) *ToolResult {
	var parts []string
	out := &ToolResult{IsError: res.IsError}
	for _, ct := range res.Content {
		tc := toolContentOf(ct)
		out.Content = append(out.Content, tc)
		if tc.Kind == toolcall.ContentText {
			parts = append(parts, tc.Text)
		} else {
			out.Omitted = append(out.Omitted, tc.Describe())
		}
	}
	out.Text = strings.Join(parts, "\n")
	if res.StructuredContent != nil {
		out.Structured, _ = json.Marshal(res.StructuredContent)
	}
	return out
}

// ModelText is what the model is given of the result (toolcall.ModelText):
// the entries whose audience leaves the model out are held back, and held
// says what each was.
func (r *ToolResult) ModelText() (text string, held []string) {
	return toolcall.ModelText(r.Content, r.Structured)
}

// KeptContent returns the result's content as a stored turn keeps it
// (toolcall.Kept); the result itself is not changed.
func (r *ToolResult) KeptContent() []toolcall.Content { return toolcall.Kept(r.Content) }

// HeldBack says what ModelText holds back from the model
// (toolcall.HeldBack).
func (r *ToolResult) HeldBack() []string { return toolcall.HeldBack(r.Content) }

// SentResources lists the uris of the resources whose bodies ModelText
// carries (toolcall.SentResources).
func (r *ToolResult) SentResources() []string { return toolcall.SentResources(r.Content) }

// HeldResources lists the uris of the resources ModelText holds back
// (toolcall.HeldResources).
func (r *ToolResult) HeldResources() []string { return toolcall.HeldResources(r.Content) }
