package hostcore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"iter"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/icon"
	"github.com/attache/attache/hostcore/listmemo"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/wire"
)

// Resource is one entry of resources/list.
type Resource struct {
	URI         string           `json:"uri"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	MIMEType    string           `json:"mimeType,omitempty"`
	Size        int64            `json:"size,omitempty"`
	Annotations pack.Annotations `json:"annotations,omitzero"`
	Icons       []icon.Source    `json:"icons,omitempty"`
}

// Template is one entry of resources/templates/list.
type Template struct {
	URITemplate string           `json:"uriTemplate"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	MIMEType    string           `json:"mimeType,omitempty"`
	Annotations pack.Annotations `json:"annotations,omitzero"`
	Icons       []icon.Source    `json:"icons,omitempty"`
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

// DefaultMaxListItems is how many items one listing yields at most unless
// ListOptions.MaxItems says otherwise.
const DefaultMaxListItems = 1_000_000

// ListOptions tunes one listing. A nil *ListOptions, or a zero field, takes
// the documented default.
type ListOptions struct {
	// OnPage, if set, is called after each page.
	OnPage func(ListProgress)
	// MaxItems bounds the items of the listing, against a server whose
	// pages never end; 0 means DefaultMaxListItems. Past the default the
	// listing yields an error of kind server fault (a listing that does
	// not end is the server's); past a bound the caller chose, one of kind
	// usage. Either names the bound.
	MaxItems int

	chosen bool // MaxItems was the caller's
}

func (o *ListOptions) withDefaults() ListOptions {
	var c ListOptions
	if o != nil {
		c = *o
	}
	c.chosen = c.MaxItems > 0 && c.MaxItems != DefaultMaxListItems
	if c.MaxItems <= 0 {
		c.MaxItems = DefaultMaxListItems
	}
	return c
}

// Resources lists every resource of every page, lazily: a page is fetched
// when the previous one has been handed on, so memory does not grow with the
// pages already seen. onPage (optional) is called after each page. Stop
// iterating to stop fetching. A server that declared no resources
// capability lists nothing and is never asked: Offers tells that apart
// from an empty list. It is ResourcesWith with only OnPage set.
func (c *Conn) Resources(ctx context.Context, onPage func(ListProgress)) iter.Seq2[Resource, error] {
	return c.ResourcesWith(ctx, &ListOptions{OnPage: onPage})
}

// Templates lists every resource template of every page, lazily. It is
// TemplatesWith with only OnPage set.
func (c *Conn) Templates(ctx context.Context, onPage func(ListProgress)) iter.Seq2[Template, error] {
	return c.TemplatesWith(ctx, &ListOptions{OnPage: onPage})
}

// ResourcesWith is Resources with options.
func (c *Conn) ResourcesWith(ctx context.Context, opts *ListOptions) iter.Seq2[Resource, error] {
	return paginate(ctx, c, resourceListing, opts.withDefaults())
}

// TemplatesWith is Templates with options.
func (c *Conn) TemplatesWith(ctx context.Context, opts *ListOptions) iter.Seq2[Template, error] {
	return paginate(ctx, c, templateListing, opts.withDefaults())
}

// listKind is what paginate knows of one list method: how to ask for a
// page, where the reply keeps its items (field), how to make the host's
// item of go-sdk's (W) with the priority as sent, and go-sdk's
// annotations of an item.
type listKind[W, T any] struct {
	method      string
	field       string
	fetch       func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]W, string, CacheHints, error)
	convert     func(w W, prio *float64) T
	annotations func(W) *mcp.Annotations
}

var resourceListing = listKind[*mcp.Resource, Resource]{
	method: "resources/list",
	field:  "resources",
	fetch: func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.Resource, string, CacheHints, error) {
		res, hints, err := boxed(ctx, func(ctx context.Context) (*mcp.ListResourcesResult, error) {
			return cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		})
		if err != nil {
			return nil, "", hints, err
		}
		return res.Resources, res.NextCursor, hints, nil
	},
	convert: func(r *mcp.Resource, prio *float64) Resource {
		return Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
			MIMEType: r.MIMEType, Size: r.Size, Annotations: annotations(r.Annotations, prio), Icons: iconsOf(r.Icons)}
	},
	annotations: func(r *mcp.Resource) *mcp.Annotations { return r.Annotations },
}

var templateListing = listKind[*mcp.ResourceTemplate, Template]{
	method: "resources/templates/list",
	field:  "resourceTemplates",
	fetch: func(ctx context.Context, cs *mcp.ClientSession, cursor string) ([]*mcp.ResourceTemplate, string, CacheHints, error) {
		res, hints, err := boxed(ctx, func(ctx context.Context) (*mcp.ListResourceTemplatesResult, error) {
			return cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		})
		if err != nil {
			return nil, "", hints, err
		}
		return res.ResourceTemplates, res.NextCursor, hints, nil
	},
	convert: func(t *mcp.ResourceTemplate, prio *float64) Template {
		return Template{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description,
			MIMEType: t.MIMEType, Annotations: annotations(t.Annotations, prio), Icons: iconsOf(t.Icons)}
	},
	annotations: func(t *mcp.ResourceTemplate) *mcp.Annotations { return t.Annotations },
}

// lister fetches the pages of one listing, through the cache.
type lister[W, T any] struct {
	c *Conn
	listKind[W, T]
	// live is set once a page of this listing came from the server: the
	// pages after it come from the server too, without a cache lookup
	// each (a SQLite query, a fifth of a page's cost in a listing of
	// 50,000 resources). The cursors are then the server's current ones,
	// and the listing one consistent walk of the list.
	live bool
	// cached is set once a page came from the cache or went into it: the
	// cache's TTLs then say when to list again, not the session (see listmemo).
	cached bool
}

// page is a list page as the cache stores it.
type page[T any] struct {
	Items []T    `json:"items"`
	Next  string `json:"next,omitempty"`
}

// paginate walks the pages of a list. It stops with a protocol error when
// a cursor comes back (a→b→a is as endless as a→a) or the pages never end,
// and with a server fault past opts.MaxItems items: a listing that does not
// end is the server's.
//
// Pages served from the cache are held back until the walk reaches its
// last page or a page the server sends: a cached page's cursor may be one
// the server no longer accepts (its pagination moved on while the page was
// fresh by its ttl). Then the cached pages are dropped (see page) and the
// walk starts once more from a fresh page 1, and nothing stale was handed
// on. A cursor the server refuses in a walk it served itself is its fault.
func paginate[W, T any](ctx context.Context, c *Conn, kind listKind[W, T], opts ListOptions) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		partition, err := c.Partition(ctx) // inputs are asked for before any lookup
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		kept, ok, ticket, err := c.lists.Take(ctx, kind.method, partition, c.sessionNow)
		switch {
		case err != nil:
			var zero T
			yield(zero, err)
			return
		case ok:
			replay(c, kind.method, kept.([]T), opts, yield)
			return
		}
		rec := &recorder[T]{yield: yield}
		w := &walk[W, T]{lister: &lister[W, T]{c: c, listKind: kind}, opts: opts, yield: rec.pass, handing: rec.handing}
		w.run(ctx)
		if rec.whole() && !w.cached {
			ticket.Keep(rec.items(), c.sessionNow())
		} else {
			ticket.Drop()
		}
	}
}

// replay hands on a kept listing, as the walk that made it would have
// within opts.MaxItems.
func replay[T any](c *Conn, method string, items []T, opts ListOptions, yield func(T, error) bool) {
	for i, it := range items {
		if i == opts.MaxItems {
			var zero T
			yield(zero, newError(fault.KindUsage, nil, "listing %s of %s: the server has more than %s, the most one listing may hold; stopped there",
				method, c.Server.Name, pack.Quantity(opts.MaxItems, "item")))
			return
		}
		if !yield(it, nil) {
			return
		}
	}
}

// recorder keeps what a walk hands on, to keep the listing once whole. It
// keeps the pages' own slices as the walk hands them on (see
// walk.handing), not a copy of each item: a listing over listmemo.MaxItems,
// kept by no one, then costs nothing to record, and a kept one is joined
// once, at its end.
type recorder[T any] struct {
	yield   func(T, error) bool
	pages   [][]T
	n       int  // the items of pages
	stopped bool // the consumer stopped, an error was handed on, or too many items
}

// handing is told of the items the walk is about to hand on, in order.
func (r *recorder[T]) handing(items []T) {
	if r.stopped || len(items) == 0 {
		return
	}
	if r.n += len(items); r.n > listmemo.MaxItems {
		r.stop()
		return
	}
	r.pages = append(r.pages, items)
}

func (r *recorder[T]) pass(it T, err error) bool {
	if err != nil {
		r.stop()
	}
	if !r.yield(it, err) {
		r.stop()
		return false
	}
	return true
}

func (r *recorder[T]) stop() { r.stopped, r.pages = true, nil }

// whole reports whether the walk handed on the whole listing.
func (r *recorder[T]) whole() bool { return !r.stopped }

// items is the whole listing.
func (r *recorder[T]) items() []T { return slices.Concat(r.pages...) }

// walk is one run of paginate.
type walk[W, T any] struct {
	*lister[W, T]
	opts     ListOptions
	yield    func(T, error) bool
	handing  func([]T) // told of the items emit is about to hand on (nil: no one)
	yielded  int
	held     []T  // items of cached pages, not yet handed on
	restarts int  // walks started again after a stale cached cursor
	stopped  bool // the consumer stopped, or an error was yielded
}

func (w *walk[W, T]) run(ctx context.Context) {
	var zero T
	cursor, progress, cached := "", ListProgress{}, false
	// The pages at which each cursor was handed out, by digest: a
	// server's cursors may be long, and a listing may be long.
	seen := map[[sha256.Size]byte]int{}
	for progress.Pages < maxPages {
		p, fromCache, err := w.page(ctx, cursor)
		switch {
		case errors.Is(err, ErrNotOffered):
			return // nothing to list: see Conn.Offers
		case err != nil && cached && errors.Is(err, fault.ErrInvalidParams) && w.restarts == 0:
			w.c.host.log.Info("a cached page's cursor is stale; listing again from page 1", "method", w.method, "server", w.c.Server.Name)
			w.restarts, w.held, w.live = 1, nil, true
			cursor, progress, cached = "", ListProgress{}, false
			clear(seen)
			continue
		case err != nil && cursor != "" && errors.Is(err, fault.ErrInvalidParams):
			w.fail(newError(fault.KindServerFault, err, "listing %s of %s: the server refused the cursor it sent with page %d", w.method, w.c.Server.Name, progress.Pages))
			return
		case err != nil:
			w.fail(err)
			return
		}
		progress.Pages++
		progress.Items += len(p.Items)
		progress.More = p.Next != ""
		if w.opts.OnPage != nil {
			w.opts.OnPage(progress)
		}
		if cached = fromCache; fromCache && p.Next != "" {
			w.held = append(w.held, p.Items...)
		} else if !w.emit(w.held) || !w.emit(p.Items) {
			return
		} else {
			w.held = nil
		}
		if p.Next == "" {
			return
		}
		d := sha256.Sum256([]byte(p.Next))
		if first, ok := seen[d]; ok {
			w.fail(protocolError("", "listing %s of %s: the server's cursors go round in a cycle (page %d's next cursor is page %d's again)",
				w.method, w.c.Server.Name, progress.Pages, first))
			return
		}
		seen[d] = progress.Pages
		cursor = p.Next
	}
	w.yield(zero, protocolError("", "listing %s of %s: the server sent more than %d pages", w.method, w.c.Server.Name, maxPages))
}

// emit hands items on, and stops the walk past opts.MaxItems or when the
// consumer stops.
func (w *walk[W, T]) emit(items []T) bool {
	if w.handing != nil {
		w.handing(items)
	}
	for _, it := range items {
		if w.yielded == w.opts.MaxItems {
			kind := fault.KindServerFault
			if w.opts.chosen {
				kind = fault.KindUsage
			}
			w.fail(newError(kind, nil, "listing %s of %s: the server has more than %s, the most one listing may hold; stopped there",
				w.method, w.c.Server.Name, pack.Quantity(w.opts.MaxItems, "item")))
			return false
		}
		w.yielded++
		if !w.yield(it, nil) {
			return false
		}
	}
	return true
}

func (w *walk[W, T]) fail(err error) {
	var zero T
	w.yield(zero, err)
}

// page returns the page at cursor: a fresh cache entry, else the server's
// answer, stored under the same rules as reads; fromCache tells which. An
// invalid cursor drops every cached page of this list, since the server's
// pagination changed.
func (l *lister[W, T]) page(ctx context.Context, cursor string) (p page[T], fromCache bool, err error) {
	h := l.c.host
	key := CacheKey{Server: l.c.identity, Method: l.method, Param: cursor}
	partition, err := l.c.Partition(ctx) // inputs are asked for before any lookup
	if err != nil {
		return page[T]{}, false, err
	}
	if h.opts.Cache != nil && !l.live {
		if e, ok, err := h.opts.Cache.Get(ctx, key, partition); err == nil && ok && fresh(e, h.opts.Now.now()) && l.c.servable(e) {
			var p page[T]
			if wire.Decode(e.Value, &p) == nil {
				l.cached = true
				return p, true, nil
			}
		}
	}
	if ok, err := l.c.Offers(ctx, listFeature[l.method]); err != nil {
		return page[T]{}, false, err
	} else if !ok {
		return page[T]{}, false, ErrNotOffered // never ask what the server did not declare
	}
	gen := h.generation(key)
	var hints CacheHints
	var next string
	items, err := call(ctx, l.c, "listing "+l.method, "", func(ctx context.Context, cs *mcp.ClientSession) ([]W, error) {
		items, n, hs, err := l.fetch(ctx, cs, cursor)
		next, hints = n, hs
		return items, err
	})
	if err != nil {
		if cursor != "" && errors.Is(err, fault.ErrInvalidParams) {
			h.invalidateMethod(ctx, l.c.identity, l.method)
		}
		return page[T]{}, false, err
	}
	l.live = true
	prios := l.priorities(items, cursor)
	// go-sdk's priorities, where the reply's are its own: one slice for
	// the page, not one allocation for each item's.
	var sdk []float64
	if prios == nil {
		sdk = make([]float64, len(items))
	}
	p = page[T]{Items: make([]T, 0, len(items)), Next: next}
	for i, w := range items {
		var prio *float64
		if i < len(prios) {
			prio = prios[i]
		} else if a := l.annotations(w); sdk != nil && a != nil && a.Priority != 0 {
			sdk[i] = a.Priority
			prio = &sdk[i]
		}
		p.Items = append(p.Items, l.convert(w, prio))
	}
	l.cached = l.cached || (h.opts.Cache != nil && hints.TTL > 0)
	l.store(ctx, key, p, hints, gen, partition)
	return p, false, nil
}

// priorities returns each item's annotations.priority as the server sent
// it, nil where absent, read from the raw reply: go-sdk decodes an absent
// priority and a priority of 0 alike. Only a page that may name a
// priority of 0 is decoded again: go-sdk's priority is non-zero where the
// reply names a non-zero one, and when the reply names "priority" exactly
// as often as that, it names no 0 (nor a priority elsewhere), and go-sdk's
// values are the whole answer (nil: annotations takes them).
func (l *lister[W, T]) priorities(items []W, cursor string) []*float64 {
	raw, _ := l.c.tap.Find(l.method, cursor)
	named := bytes.Count(raw.Response, []byte(`"priority"`))
	if named == 0 {
		return nil
	}
	nonzero := 0
	for _, w := range items {
		if a := l.annotations(w); a != nil && a.Priority != 0 {
			nonzero++
		}
	}
	if named == nonzero {
		return nil
	}
	return rawPriorities(raw, l.field)
}

func (l *lister[W, T]) store(ctx context.Context, key CacheKey, p page[T], hints CacheHints, gen uint64, partition string) {
	h := l.c.host
	if h.opts.Cache == nil || hints.TTL <= 0 {
		return
	}
	value, err := json.Marshal(p)
	if err != nil {
		return
	}
	e := CacheEntry{Key: key, Scope: cacheScope(hints.Scope), Value: value, StoredAt: h.opts.Now.now(), TTL: min(hints.TTL, MaxTTL)}
	if e.Scope == ScopePrivate {
		e.Partition, e.AccountName = partition, l.c.Account.Name
	}
	h.putIfCurrent(ctx, e, gen)
}

// annotations converts go-sdk's annotations. prio is the priority as sent
// (nil when absent), read from the raw reply: go-sdk's float64 cannot tell
// an absent priority from 0.
func annotations(a *mcp.Annotations, prio *float64) pack.Annotations {
	if a == nil {
		return pack.Annotations{}
	}
	out := pack.Annotations{LastModified: a.LastModified, Priority: prio}
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
// sent, nil where absent. field is the result's list: "resources" or
// "resourceTemplates".
func rawPriorities(raw wire.Exchange, field string) []*float64 {
	if raw.Truncated || !bytes.Contains(raw.Response, []byte(`"priority"`)) {
		return nil // no priority anywhere: spare a large page its second decode
	}
	// One decode reads either list: a reply holds the field of its method.
	var reply struct {
		Result struct {
			Resources []rawAnnotated `json:"resources"`
			Templates []rawAnnotated `json:"resourceTemplates"`
		} `json:"result"`
	}
	if wire.Decode(raw.Response, &reply) != nil {
		return nil
	}
	items := reply.Result.Resources
	if field == "resourceTemplates" {
		items = reply.Result.Templates
	}
	out := make([]*float64, len(items))
	for i, it := range items {
		out[i] = it.Annotations.Priority
	}
	return out
}

// rawAnnotated is what rawPriorities reads of a list item.
type rawAnnotated struct {
	Annotations struct {
		Priority *float64 `json:"priority"`
	} `json:"annotations"`
}

// iconsOf converts go-sdk's icons.
func iconsOf(icons []mcp.Icon) []icon.Source {
	if len(icons) == 0 {
		return nil
	}
	out := make([]icon.Source, len(icons))
	for i, ic := range icons {
		out[i] = icon.Source{Source: ic.Source, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)}
	}
	return out
}
