package hostcore

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is one entry of resources/list.
type Resource struct {
	URI         string      `json:"uri"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	MIMEType    string      `json:"mimeType,omitempty"`
	Size        int64       `json:"size,omitempty"`
	Annotations Annotations `json:"annotations,omitzero"`
	Icons       []mcp.Icon  `json:"icons,omitempty"`
}

// Template is one entry of resources/templates/list.
type Template struct {
	URITemplate string      `json:"uriTemplate"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	MIMEType    string      `json:"mimeType,omitempty"`
	Annotations Annotations `json:"annotations,omitzero"`
	Icons       []mcp.Icon  `json:"icons,omitempty"`
}

// DisplayName is the title, else the name.
func (r Resource) DisplayName() string { return firstNonEmpty(r.Title, r.Name, r.URI) }

// DisplayName is the title, else the name.
func (t Template) DisplayName() string { return firstNonEmpty(t.Title, t.Name, t.URITemplate) }

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// ListProgress reports how far a listing has come.
type ListProgress struct {
	Pages int
	Items int
	// More is true while the server has announced another page.
	More bool
}

// maxPages bounds a listing, against a server whose cursors never end.
const maxPages = 100_000

// Resources lists every resource of every page, lazily: a page is fetched
// when the previous one has been handed on, so memory does not grow with the
// pages already seen. onPage (optional) is called after each page. Stop
// iterating to stop fetching.
func (c *Conn) Resources(ctx context.Context, onPage func(ListProgress)) iter.Seq2[Resource, error] {
	return paginate(ctx, c, "resources/list", "resources", onPage,
		func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.Resource, string, error) {
			res, _, err := boxed(ctx, func(ctx context.Context) (*mcp.ListResourcesResult, error) {
				return cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			})
			if err != nil {
				return nil, "", err
			}
			return res.Resources, res.NextCursor, nil
		},
		func(r *mcp.Resource, prio *float64) Resource {
			return Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
				MIMEType: r.MIMEType, Size: r.Size, Annotations: annotations(r.Annotations, prio), Icons: r.Icons}
		})
}

// Templates lists every resource template of every page, lazily.
func (c *Conn) Templates(ctx context.Context, onPage func(ListProgress)) iter.Seq2[Template, error] {
	return paginate(ctx, c, "resources/templates/list", "resourceTemplates", onPage,
		func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.ResourceTemplate, string, error) {
			res, _, err := boxed(ctx, func(ctx context.Context) (*mcp.ListResourceTemplatesResult, error) {
				return cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			})
			if err != nil {
				return nil, "", err
			}
			return res.ResourceTemplates, res.NextCursor, nil
		},
		func(t *mcp.ResourceTemplate, prio *float64) Template {
			return Template{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description,
				MIMEType: t.MIMEType, Annotations: annotations(t.Annotations, prio), Icons: t.Icons}
		})
}

type pageFunc[W any] func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]W, string, error)

func paginate[W, T any](ctx context.Context, c *Conn, method, field string, onPage func(ListProgress),
	fetch pageFunc[W], convert func(W, *float64) T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		cursor, progress := "", ListProgress{}
		for progress.Pages < maxPages {
			sent := cursor
			items, err := call(ctx, c, "listing "+method, "", func(ctx context.Context, cs *mcp.ClientSession) ([]W, error) {
				items, next, err := fetch(ctx, cs, sent)
				cursor = next
				return items, err
			})
			if err != nil {
				yield(zero, err)
				return
			}
			if cursor != "" && cursor == sent {
				yield(zero, protocolError("", "listing %s: the server sent the same cursor twice", method))
				return
			}
			raw, _ := c.tap.Find(method, sent)
			prios := rawPriorities(raw, field)
			progress.Pages++
			progress.Items += len(items)
			progress.More = cursor != ""
			if onPage != nil {
				onPage(progress)
			}
			for i, w := range items {
				var p *float64
				if i < len(prios) {
					p = prios[i]
				}
				if !yield(convert(w, p), nil) {
					return
				}
			}
			if cursor == "" {
				return
			}
		}
		yield(zero, protocolError("", "listing %s: the server sent more than %d pages", method, maxPages))
	}
}

// annotations converts go-sdk's annotations. prio is the priority as sent
// (nil when absent), read from the raw reply: go-sdk's float64 cannot tell
// an absent priority from 0.
func annotations(a *mcp.Annotations, prio *float64) Annotations {
	if a == nil {
		return Annotations{}
	}
	out := Annotations{LastModified: a.LastModified, Priority: prio}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, string(r))
	}
	if prio == nil && a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return out
}

// rawPriorities reads annotations.priority of each item of a list reply as
// sent, nil where absent.
func rawPriorities(raw Exchange, field string) []*float64 {
	var env struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	var items []struct {
		Annotations struct {
			Priority *float64 `json:"priority"`
		} `json:"annotations"`
	}
	if raw.Truncated || json.Unmarshal(raw.Response, &env) != nil || json.Unmarshal(env.Result[field], &items) != nil {
		return nil
	}
	out := make([]*float64, len(items))
	for i, it := range items {
		out[i] = it.Annotations.Priority
	}
	return out
}
