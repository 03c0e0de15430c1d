package mcptest

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol version each era mode is pinned to.
const (
	Version2026    = "2026-07-28"
	Version2025Nov = "2025-11-25"
	Version2025Jun = "2025-06-18"
)

// eraVersions maps an era mode to its only protocol version.
var eraVersions = map[string]string{
	ModeV2026:    Version2026,
	ModeV2025Nov: Version2025Nov,
	ModeV2025Jun: Version2025Jun,
}

// The era modes' resources and template.
const (
	ReadmeURI     = "test://docs/readme.md"          // text/markdown, public hint
	LogoURI       = "test://images/logo.png"         // image/png blob, private hint
	NotesURI      = "test://notes/plain.txt"         // text/plain, no annotations, no hint
	ItemsTemplate = "test://items/{category}/{name}" // completion on both variables
)

// ReadmeText is the body of ReadmeURI.
const ReadmeText = "# mcptest\n\nA *static* markdown resource with `audience`, `priority` 1 and `lastModified`.\n"

// NotesText is the body of NotesURI.
const NotesText = "plain notes, without annotations\n"

// The cache hints the v2026 mode puts on reads, in milliseconds. The legacy
// eras set none (go-sdk still writes its defaults; see the package doc).
const (
	ReadmeTTLMs = 60_000
	LogoTTLMs   = 30_000
)

// The lastModified annotations of the era resources.
const (
	ReadmeLastModified = "2026-01-15T09:30:00Z"
	LogoLastModified   = "2025-12-01T08:00:00Z"
)

// eraServer returns the builder of one era mode's go-sdk server.
func eraServer(name string) func(Options) *mcp.Server {
	return func(o Options) *mcp.Server {
		version := eraVersions[name]
		srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-" + name, Version: "1.0.0"}, &mcp.ServerOptions{
			Logger:                    o.Logger,
			SupportedProtocolVersions: []string{version},
			CompletionHandler:         completeItems,
			SubscribeHandler:          func(context.Context, *mcp.SubscribeRequest) error { return nil },
			UnsubscribeHandler:        func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
		addEraResources(srv, version == Version2026)
		mcp.AddTool(srv, &mcp.Tool{
			Name:        "touch",
			Description: "Sends notifications/resources/updated for uri to its subscribers.",
		}, func(ctx context.Context, _ *mcp.CallToolRequest, in touchInput) (*mcp.CallToolResult, any, error) {
			if err := srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: in.URI}); err != nil {
				return nil, nil, fmt.Errorf("notifying %s: %w", in.URI, err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "updated " + in.URI}}}, nil, nil
		})
		addEraTools(srv)
		if version == Version2026 {
			srv.AddReceivingMiddleware(dropReadHints(NotesURI))
		}
		return srv
	}
}

// touchInput is the argument of the touch tool.
type touchInput struct {
	URI string `json:"uri" jsonschema:"the resource URI to report as updated"`
}

// addEraResources adds the three static resources and the items template.
// With hints, reads carry the v2026 cache hints.
func addEraResources(srv *mcp.Server, hints bool) {
	hint := func(ttl int, scope string) mcp.Cacheable {
		if !hints {
			return mcp.Cacheable{}
		}
		return mcp.Cacheable{TTLMs: ttl, CacheScope: scope}
	}
	srv.AddResource(&mcp.Resource{
		URI: ReadmeURI, Name: "readme", Title: "Read me", MIMEType: "text/markdown",
		Size: int64(len(ReadmeText)),
		Annotations: &mcp.Annotations{
			Audience: []mcp.Role{"user", "assistant"}, Priority: 1, LastModified: ReadmeLastModified,
		},
	}, textHandler(ReadmeText, hint(ReadmeTTLMs, "public")))
	logo := LogoPNG()
	srv.AddResource(&mcp.Resource{
		URI: LogoURI, Name: "logo", Title: "Logo", MIMEType: "image/png", Size: int64(len(logo)),
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.25, LastModified: LogoLastModified},
	}, blobHandler(logo, hint(LogoTTLMs, "private")))
	srv.AddResource(&mcp.Resource{URI: NotesURI, Name: "notes", MIMEType: "text/plain"},
		textHandler(NotesText, mcp.Cacheable{}))
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: ItemsTemplate, Name: "items", Title: "Items by category", MIMEType: "text/plain",
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: 0.5},
	}, readItem)
}

// textHandler answers every read with text and the cache hint.
func textHandler(text string, hint mcp.Cacheable) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Cacheable: hint,
			Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: text}}}, nil
	}
}

// blobHandler answers every read with blob and the cache hint.
func blobHandler(blob []byte, hint mcp.Cacheable) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Cacheable: hint,
			Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Blob: blob}}}, nil
	}
}

// readItem reads test://items/{category}/{name}; an item not in Items is
// answered with mcp.ResourceNotFoundError.
func readItem(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	category, name, ok := itemOf(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: uri, MIMEType: "text/plain", Text: ItemText(category, name),
	}}}, nil
}

// ItemText is the body of an item of the items template.
func ItemText(category, name string) string {
	return fmt.Sprintf("%s (a kind of %s)\n", name, category)
}

// itemOf parses an items URI and reports whether it names an item in Items.
func itemOf(uri string) (category, name string, ok bool) {
	rest, ok := strings.CutPrefix(uri, "test://items/")
	if !ok {
		return "", "", false
	}
	rawCategory, rawName, ok := strings.Cut(rest, "/")
	if !ok {
		return "", "", false
	}
	category, err1 := url.PathUnescape(rawCategory)
	name, err2 := url.PathUnescape(rawName)
	if err1 != nil || err2 != nil || !containsItem(category, name) {
		return "", "", false
	}
	return category, name, true
}
