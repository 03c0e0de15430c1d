package mcptest

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PagedURI returns the URI of the paged mode's resource i (0-based).
func PagedURI(i int) string { return fmt.Sprintf("test://paged/resources/%d", i) }

// PagedTemplate returns the URI template of the paged mode's template i.
func PagedTemplate(i int) string { return fmt.Sprintf("test://paged/t%d/{name}", i) }

// PagedText returns the body of the paged mode's resource i.
func PagedText(i int) string { return fmt.Sprintf("resource %d\n", i) }

// pager generates the paged mode's listings one page at a time, so that a
// server of 50,000 resources never holds more than a page of them.
type pager struct {
	resources, templates, pageSize int
	cacheable                      mcp.Cacheable // of each list page
}

// pagedServer is a go-sdk server whose resources/list,
// resources/templates/list and resources/read are answered by a pager
// instead of registered features. go-sdk still does the protocol: eras,
// initialize and discover.
func pagedServer(o Options) *mcp.Server {
	p := pager{resources: o.Resources, templates: o.Templates, pageSize: o.PageSize}
	if o.ListTTL > 0 {
		p.cacheable = mcp.Cacheable{TTLMs: int(o.ListTTL.Milliseconds()), CacheScope: "public"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-paged", Version: "1.0.0"}, &mcp.ServerOptions{
		Logger:       o.Logger,
		Capabilities: &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{}},
	})
	srv.AddReceivingMiddleware(p.middleware)
	return srv
}

// middleware answers the three resource methods; the rest goes on to go-sdk.
func (p pager) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListResourcesRequest:
			return p.listResources(r.Params)
		case *mcp.ListResourceTemplatesRequest:
			return p.listTemplates(r.Params)
		case *mcp.ReadResourceRequest:
			return p.read(r.Params.URI)
		}
		return next(ctx, method, req)
	}
}

// listResources answers one page of resources.
func (p pager) listResources(params *mcp.ListResourcesParams) (*mcp.ListResourcesResult, error) {
	var cursor string
	if params != nil {
		cursor = params.Cursor
	}
	rs, next, err := pageOf(p, "resources", cursor, p.resources, pagedResource)
	if err != nil {
		return nil, err
	}
	return &mcp.ListResourcesResult{Cacheable: p.cacheable, NextCursor: next, Resources: rs}, nil
}

// listTemplates answers one page of templates.
func (p pager) listTemplates(params *mcp.ListResourceTemplatesParams) (*mcp.ListResourceTemplatesResult, error) {
	var cursor string
	if params != nil {
		cursor = params.Cursor
	}
	ts, next, err := pageOf(p, "templates", cursor, p.templates, pagedResourceTemplate)
	if err != nil {
		return nil, err
	}
	return &mcp.ListResourceTemplatesResult{Cacheable: p.cacheable, NextCursor: next, ResourceTemplates: ts}, nil
}

// pageOf builds the page of a list that cursor starts, item by item, and
// returns it with the cursor of the next page.
func pageOf[T any](p pager, kind, cursor string, total int, item func(int) T) ([]T, string, error) {
	start, end, next, err := p.page(kind, cursor, total)
	if err != nil {
		return nil, "", err
	}
	out := make([]T, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, item(i))
	}
	return out, next, nil
}

// pagedResource is the paged mode's resource i. Priorities cycle through
// 0, 0.25, ... 1; lastModified advances a minute per resource.
func pagedResource(i int) *mcp.Resource {
	return &mcp.Resource{
		URI: PagedURI(i), Name: fmt.Sprintf("resource-%d", i), MIMEType: "text/plain",
		Size: int64(len(PagedText(i))),
		Annotations: &mcp.Annotations{
			Priority:     float64(i%5) / 4,
			LastModified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339),
		},
	}
}

// pagedResourceTemplate is the paged mode's template i.
func pagedResourceTemplate(i int) *mcp.ResourceTemplate {
	return &mcp.ResourceTemplate{URITemplate: PagedTemplate(i), Name: fmt.Sprintf("template-%d", i), MIMEType: "text/plain"}
}

// read answers a paged resource; anything else is not found.
func (p pager) read(uri string) (*mcp.ReadResourceResult, error) {
	s, ok := strings.CutPrefix(uri, "test://paged/resources/")
	i, err := strconv.Atoi(s)
	if !ok || err != nil || i < 0 || i >= p.resources || PagedURI(i) != uri {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: uri, MIMEType: "text/plain", Text: PagedText(i),
	}}}, nil
}

// page resolves a cursor of the list kind into the half-open range of items
// it starts, and the cursor of the page after (empty on the last page).
// A cursor this pager did not hand out is -32602.
func (p pager) page(kind, cursor string, total int) (start, end int, next string, err error) {
	if cursor != "" {
		if start, err = decodeCursor(kind, cursor, total); err != nil {
			return 0, 0, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: " + err.Error()}
		}
	}
	end = min(start+p.pageSize, total)
	if end < total {
		next = encodeCursor(kind, end)
	}
	return start, end, next, nil
}

// encodeCursor makes the opaque cursor of the page starting at offset.
func encodeCursor(kind string, offset int) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "mcptest/%s/%d", kind, offset))
}

// decodeCursor checks a cursor of the list kind and returns its offset.
func decodeCursor(kind, cursor string, total int) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, fmt.Errorf("invalid cursor %q", cursor)
	}
	s, ok := strings.CutPrefix(string(b), "mcptest/"+kind+"/")
	offset, err := strconv.Atoi(s)
	if !ok || err != nil || offset <= 0 || offset >= total || encodeCursor(kind, offset) != cursor {
		return 0, fmt.Errorf("invalid cursor %q", cursor)
	}
	return offset, nil
}
