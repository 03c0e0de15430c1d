package hostcore

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
)

// A tester pages a list by hand, one page at a time, to see exactly what
// the server sends with each cursor (the catalog walks every page at once,
// through the cache). Each page is asked of the server, on the app's own
// connection, and shows in its record with its id.

// ListPage is one page of a list, as the server sent it just now.
type ListPage struct {
	Method string
	// Cursor is the cursor the page was asked with ("" for the first);
	// Next is the reply's nextCursor ("" on the last page).
	Cursor, Next string
	// Items names each item: a resource's uri, a template's uriTemplate,
	// a tool's or a prompt's name.
	Items []string
	// ID is the request's JSON-RPC id as sent, and Seq its message in the
	// connection's record; "" and 0 when the record holds no such request.
	ID  string
	Seq uint64
}

// PagedMethods are the lists ListPage pages.
var PagedMethods = []string{"resources/list", "resources/templates/list", "tools/list", "prompts/list"}

// ListPage asks the server for the page of method at cursor ("" for the
// first), never from the cache (the resources' and tools' pages are stored
// under their hints, as the catalog stores them). A server that did not
// declare what the method lists is not asked.
func (c *Conn) ListPage(ctx context.Context, method, cursor string) (ListPage, error) {
	mark := c.tap.Last()
	p, err := c.listPage(ctx, method, cursor)
	if errors.Is(err, ErrNotOffered) {
		err = newError(fault.KindUsage, ErrNotOffered, "listing %s of %s: the server does not declare what it lists", method, c.Server.Name)
	}
	p.Method, p.Cursor = method, cursor
	if e, ok := c.tap.SentSince(mark, method); ok {
		p.ID, p.Seq = e.ID, e.Seq
	}
	return p, err
}

func (c *Conn) listPage(ctx context.Context, method, cursor string) (ListPage, error) {
	switch method {
	case "resources/list":
		l := &lister[*mcp.Resource, Resource]{c: c, listKind: resourceListing, live: true}
		p, _, err := l.page(ctx, cursor)
		return namedPage(p, func(r Resource) string { return r.URI }), err
	case "resources/templates/list":
		l := &lister[*mcp.ResourceTemplate, Template]{c: c, listKind: templateListing, live: true}
		p, _, err := l.page(ctx, cursor)
		return namedPage(p, func(t Template) string { return t.URITemplate }), err
	case "tools/list", "prompts/list":
		caps, err := c.Capabilities(ctx)
		if err != nil {
			return ListPage{}, err
		}
		if method == "tools/list" && caps.Tools {
			return c.toolsListPage(ctx, cursor)
		} else if method == "prompts/list" && caps.Prompts {
			return c.promptsPage(ctx, cursor)
		}
		return ListPage{}, ErrNotOffered
	}
	return ListPage{}, newError(fault.KindUsage, nil, "%s is not a list the console pages; it pages %v", method, PagedMethods)
}

func namedPage[T any](p page[T], name func(T) string) ListPage {
	out := ListPage{Next: p.Next, Items: make([]string, len(p.Items))}
	for i, it := range p.Items {
		out.Items[i] = name(it)
	}
	return out
}

func (c *Conn) toolsListPage(ctx context.Context, cursor string) (ListPage, error) {
	partition, err := c.Partition(ctx)
	if err != nil {
		return ListPage{}, err
	}
	page, _, err := c.toolsPage(ctx, cursor, partition)
	if err != nil {
		return ListPage{}, err
	}
	out := ListPage{Next: page.Next}
	for _, raw := range page.Tools {
		var t struct {
			Name string `json:"name"`
		}
		json.Unmarshal(raw, &t)
		out.Items = append(out.Items, t.Name)
	}
	return out, nil
}

func (c *Conn) promptsPage(ctx context.Context, cursor string) (ListPage, error) {
	res, err := call(ctx, c, "listing the prompts of "+c.Server.Name, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.ListPromptsResult, error) {
		res, _, err := boxed(ctx, func(ctx context.Context) (*mcp.ListPromptsResult, error) {
			return cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		})
		return res, err
	})
	if err != nil {
		return ListPage{}, err
	}
	out := ListPage{Next: res.NextCursor}
	for _, p := range res.Prompts {
		if p != nil {
			out.Items = append(out.Items, p.Name)
		}
	}
	return out, nil
}
