package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// A text mimeType is shown as text, whatever the field it came in (issue
// 21.6): the inspector shows a blob of text/plain or application/json
// decoded, and a text entry of a binary type as the text it is; only a
// blob of a binary type gets the hex preview. The server is a go-sdk one,
// served in-process, whose bodies go over the wire as base64 blobs.
func TestTextMimeTypeShownAsText(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "blobs", Version: "1"}, nil)
	add := func(uri, mimeType string, c *mcp.ResourceContents) {
		srv.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: mimeType},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
			})
	}
	add("blob://plain", "text/plain", &mcp.ResourceContents{URI: "blob://plain", MIMEType: "text/plain", Blob: []byte("Resource 1: héllo as a blob")})
	add("blob://json", "application/json", &mcp.ResourceContents{URI: "blob://json", MIMEType: "application/json", Blob: []byte(`{"greeting":"hello from a blob"}`)})
	add("text://octets", "application/octet-stream", &mcp.ResourceContents{URI: "text://octets", MIMEType: "application/octet-stream", Text: "words in a text field"})
	add("blob://pdf", "application/pdf", &mcp.ResourceContents{URI: "blob://pdf", MIMEType: "application/pdf", Blob: []byte("%PDF-1.7\x00\x01\x02")})
	st := mcptest.NewServerTransport(srv)
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = inProcessServer("blobs")
	h.transport = serveOnly("blobs", st)
	h.open()
	if err := h.try(func() error { return h.app.SelectServer("blobs", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	for _, tt := range []struct{ uri, want, not string }{
		{"blob://plain", "Resource 1: héllo as a blob", "52 65 73"}, // "Res" in hex
		{"blob://json", "hello from a blob", "7b 22"},
		{"text://octets", "words in a text field", "77 6f 72"},
		{"blob://pdf", "25 50 44 46", ""}, // binary: the hex preview
	} {
		h.do(func() { h.app.Read(tt.uri) })
		h.settle()
		var shown string
		h.do(func() { shown = texts(h.app.inspector.body) })
		if !strings.Contains(shown, tt.want) || (tt.not != "" && strings.Contains(shown, tt.not)) {
			t.Errorf("%s shows %q; want %q in it", tt.uri, clipForLog(shown), tt.want)
		}
	}
}

// clipForLog keeps a failure's message short.
func clipForLog(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}
