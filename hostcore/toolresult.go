package hostcore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/pack"
)

// A tool result's content is a list of entries: text, images, audio,
// resources embedded whole and links to resources. The host keeps each
// entry in its own type (ToolContent), so that every front end shows a
// resource as a resource (a person can read it and attach it), and so
// that the model loop can apply the attachments' audience rule to what it
// feeds back: an entry whose audience is the user alone is shown to the
// person and never sent to the model (see ToolResult.ModelText).

// ContentKind says what a content entry of a tool result is.
type ContentKind string

// The kinds of content entry, as the protocol names them.
const (
	ContentText  ContentKind = "text"
	ContentImage ContentKind = "image"
	ContentAudio ContentKind = "audio"
	// ContentResource is a resource embedded whole: its uri and its
	// contents (text or blob), as a read would return them.
	ContentResource ContentKind = "resource"
	// ContentLink is a link to a resource the server offers, to be read
	// by its uri.
	ContentLink ContentKind = "resource_link"
	// ContentOther is an entry of a kind a tool result does not hold (a
	// sampling tool use); Description names it.
	ContentOther ContentKind = "other"
)

// ToolContent is one entry of a tool result's content.
type ToolContent struct {
	Kind ContentKind `json:"kind"`
	// Text is a text entry's text.
	Text string `json:"text,omitempty"`
	// MIMEType and Data are an image's or audio's, Data decoded from
	// base64.
	MIMEType string `json:"mimeType,omitempty"`
	Data     []byte `json:"data,omitempty"`
	// Resource is an embedded resource's contents: its uri, mimeType and
	// text or blob.
	Resource *pack.Content `json:"resource,omitempty"`
	// URI, Name, Title, Description and Size are a resource link's (with
	// MIMEType): what the server says of the resource it links to.
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	// Annotations are the entry's own: who it is for, how much it
	// matters. go-sdk decodes an absent priority and a priority of 0
	// alike, so a priority of 0 reads as none here.
	Annotations pack.Annotations `json:"annotations,omitzero"`
	// Cut says that the entry's body (Text, Data, the resource's text or
	// blob) was not kept whole, to bound what a stored turn holds, and
	// Bytes how big it was.
	Cut   bool `json:"cut,omitempty"`
	Bytes int  `json:"bytes,omitempty"`
}

// ResourceURI is the uri of the resource an entry is or links to, "" for
// text, images and audio.
func (tc ToolContent) ResourceURI() string {
	switch tc.Kind {
	case ContentResource:
		if tc.Resource != nil {
			return tc.Resource.URI
		}
	case ContentLink:
		return tc.URI
	}
	return ""
}

// ForModel reports whether the entry may reach the model: the audience
// rule of attachments (pack.ForAssistant), no audience given or one that
// names the assistant.
func (tc ToolContent) ForModel() bool { return pack.ForAssistant(tc.Annotations.Audience) }

// Describe says what the entry is in a line: "embedded resource
// demo://x (text/plain, 1,204 bytes)", "image, image/png, 1,234 bytes".
func (tc ToolContent) Describe() string {
	switch tc.Kind {
	case ContentText:
		return "text, " + pack.Quantity(tc.size(), "byte")
	case ContentImage, ContentAudio:
		return string(tc.Kind) + ", " + pack.OneLine(tc.MIMEType) + ", " + pack.Quantity(tc.size(), "byte")
	case ContentResource:
		if tc.Resource == nil {
			return "embedded resource"
		}
		return "embedded resource " + pack.OneLine(tc.Resource.URI) + " (" + orUnknown(tc.Resource.MIMEType) + ", " + pack.Quantity(tc.size(), "byte") + ")"
	case ContentLink:
		return "resource link " + pack.OneLine(tc.URI)
	}
	return "content of another kind, " + pack.OneLine(tc.Description)
}

// size is the entry's body in bytes, as the server sent it.
func (tc ToolContent) size() int {
	if tc.Cut {
		return tc.Bytes
	}
	switch {
	case tc.Kind == ContentText:
		return len(tc.Text)
	case tc.Resource != nil:
		return tc.Resource.Size()
	}
	return len(tc.Data)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "no mimeType"
	}
	return pack.OneLine(mime)
}

// audienceWords says an entry's audience as the person reads it.
func audienceWords(a []string) string { return strings.Join(a, ", ") }

// toolContentOf converts one go-sdk content entry to the host's.
func toolContentOf(ct mcp.Content) ToolContent {
	switch c := ct.(type) {
	case *mcp.TextContent:
		return ToolContent{Kind: ContentText, Text: c.Text, Annotations: annotationsOf(c.Annotations)}
	case *mcp.ImageContent:
		return ToolContent{Kind: ContentImage, MIMEType: c.MIMEType, Data: c.Data, Annotations: annotationsOf(c.Annotations)}
	case *mcp.AudioContent:
		return ToolContent{Kind: ContentAudio, MIMEType: c.MIMEType, Data: c.Data, Annotations: annotationsOf(c.Annotations)}
	case *mcp.ResourceLink:
		return ToolContent{Kind: ContentLink, URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
			MIMEType: c.MIMEType, Size: c.Size, Annotations: annotationsOf(c.Annotations)}
	case *mcp.EmbeddedResource:
		out := ToolContent{Kind: ContentResource, Annotations: annotationsOf(c.Annotations)}
		if r := c.Resource; r != nil {
			out.Resource = &pack.Content{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob, IsBlob: r.Blob != nil}
		}
		return out
	}
	return ToolContent{Kind: ContentOther, Description: fmt.Sprintf("%T", ct)}
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
		if tc.Kind == ContentText {
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

// ModelText is what the model is given of the result, with the audience
// rule of attachments applied to each content entry: text as it is; an
// embedded resource as a line naming it, then its body rendered as an
// attachment's would be (a blob is the line alone); a resource link, an
// image or audio as a line saying what it is. An entry whose audience
// leaves the model out (["user"]) is not sent; held says what each such
// entry was, for the person, and the model is told only how many were
// held back. The structured content comes first when the result has no
// text entry, sent or held (a held text is often the same data).
func (r *ToolResult) ModelText() (text string, held []string) {
	var b strings.Builder
	if len(r.Structured) > 0 && !slices.ContainsFunc(r.Content, func(tc ToolContent) bool { return tc.Kind == ContentText }) {
		b.WriteString("\n")
		b.Write(r.Structured)
	}
	for _, tc := range r.Content {
		if !tc.ForModel() {
			held = append(held, tc.heldWords())
			continue
		}
		tc.writeModel(&b)
	}
	if len(held) > 0 {
		fmt.Fprintf(&b, "\n[%s of the result held back by the host: for the person only]", pack.Quantity(len(held), "part"))
	}
	return strings.TrimPrefix(b.String(), "\n"), held
}

// writeModel writes the entry as the model reads it, after a newline.
func (tc ToolContent) writeModel(b *strings.Builder) {
	b.WriteByte('\n')
	switch {
	case tc.Kind == ContentText:
		b.WriteString(tc.Text)
	case tc.Kind == ContentLink:
		fmt.Fprintf(b, "[resource link %s", pack.OneLine(tc.URI))
		if name := firstOf(tc.Title, tc.Name); name != "" {
			fmt.Fprintf(b, ": %s", pack.OneLine(name))
		}
		if tc.Description != "" {
			fmt.Fprintf(b, " (%s)", pack.OneLine(tc.Description))
		}
		b.WriteByte(']')
	case tc.Kind == ContentResource && tc.Resource != nil && !tc.Resource.IsBlob && !tc.Cut:
		fmt.Fprintf(b, "[%s]\n%s", tc.Describe(), pack.RenderBody(tc.Resource.MIMEType, tc.Resource.Text))
	default:
		fmt.Fprintf(b, "[%s]", tc.Describe())
	}
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// maxKeptContent bounds the body of a content entry a stored turn keeps.
const maxKeptContent = 64 << 10

// KeptContent returns the result's content as a stored turn keeps it: an
// entry whose body is over 64 KiB keeps what it is (its kind, uri,
// mimeType, annotations, size) and drops the body (Cut). The result
// itself is not changed.
func (r *ToolResult) KeptContent() []ToolContent {
	out := make([]ToolContent, len(r.Content))
	for i, tc := range r.Content {
		if n := tc.size(); n > maxKeptContent {
			tc.Cut, tc.Bytes, tc.Text, tc.Data = true, n, "", nil
			if tc.Resource != nil {
				res := *tc.Resource
				res.Text, res.Blob = "", nil
				tc.Resource = &res
			}
		}
		out[i] = tc
	}
	return out
}

// HeldBack says what ModelText holds back from the model: a line per
// entry whose audience leaves the model out.
func (r *ToolResult) HeldBack() []string {
	var held []string
	for _, tc := range r.Content {
		if !tc.ForModel() {
			held = append(held, tc.heldWords())
		}
	}
	return held
}

// heldWords says what a held entry was.
func (tc ToolContent) heldWords() string {
	return tc.Describe() + ", audience " + audienceWords(tc.Annotations.Audience)
}
