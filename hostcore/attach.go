package hostcore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/yosida95/uritemplate/v3"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/expand"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/redact"
)

// Conversations is the person's conversations and what is attached to them,
// over a StateStore, with the host to reach each attachment's server. It
// decides what enters the model's context: Rank reads every attachment
// (through the cache) and packs them by audience, priority, freshness and
// budget. Screens and commands list and edit conversations and
// attachments through it (conversations.go), never through the store, and
// follow a conversation they show through Live (live.go). It is safe for
// concurrent use.
type Conversations struct {
	host  *Host
	store StateStore

	liveMu sync.Mutex
	lives  map[int64]*Live // the conversations someone holds, by id
}

// NewConversations returns the conversations kept in store.
func NewConversations(h *Host, store StateStore) *Conversations {
	return &Conversations{host: h, store: store}
}

// Host returns the host.
func (cv *Conversations) Host() *Host { return cv.host }

// Ref returns how an attachment remembers sc: a named server by name, an
// ad-hoc one by its command line or URL too (never its credentials).
//
// It keeps no secret: no headers, no environment, and no URL userinfo.
func Ref(sc config.ServerConfig) ServerRef {
	return ServerRef{Name: sc.Name, Command: sc.Command, Args: sc.Args, Cwd: sc.Cwd, URL: redact.WithoutUserinfo(sc.URL)}
}

// ServerFor resolves an attachment's server: the configured or built-in
// server of that name, else the ad-hoc one it remembers. An attachment
// stored when every ad-hoc server was called "ad-hoc" gets the name it
// would have now (see AdHocName).
func (cv *Conversations) ServerFor(ref ServerRef) (config.ServerConfig, error) {
	h := cv.host
	if sc, err := h.cfg.Find(ref.Name, h.opts.Builtin...); err == nil {
		return sc, nil
	}
	sc := config.ServerConfig{Name: ref.Name, Command: ref.Command, Args: ref.Args, Cwd: ref.Cwd, URL: ref.URL}
	if err := sc.Validate(); err != nil {
		return config.ServerConfig{}, newError(fault.KindUsage, err, "the server %q of this attachment is no longer configured", ref.Name)
	}
	if ref.Name == legacyAdHocName {
		sc = AdHoc(sc)
	}
	return sc, nil
}

// ConnFor returns the connection an attachment is read through.
func (cv *Conversations) ConnFor(a Attachment) (*Conn, error) {
	sc, err := cv.ServerFor(a.Server)
	if err != nil {
		return nil, err
	}
	return cv.host.ConnFor(sc, a.Account)
}

// AttachResource attaches a resource picked from a listing, with its
// annotations.
func (cv *Conversations) AttachResource(ctx context.Context, conv int64, c *Conn, r Resource) (Attachment, error) {
	return cv.add(ctx, c, Attachment{ConversationID: conv, Server: Ref(c.Server), Account: c.Account.Name,
		URI: r.URI, Origin: FromList, Title: r.DisplayName(), Annotations: r.Annotations})
}

// add reads a (through the cache, so the body is ready for ranking) and
// stores it. A resource the server says does not exist, or refuses, is not
// attached: the person learns now, not when the context is assembled. One
// that cannot be reached right now (the server is down) is attached anyway
// and ranked as unreadable until it can be read.
//
// A live conversation (Live) gets the attachment, with that read as its
// body in use.
func (cv *Conversations) add(ctx context.Context, c *Conn, a Attachment) (Attachment, error) {
	r := cv.readBody(ctx, c, nil, a, ReadUse)
	if err := r.item.ReadErr; err != nil && !errors.Is(err, fault.ErrTransport) && !errors.Is(err, fault.ErrTimeout) {
		return Attachment{}, err
	}
	a, err := cv.store.AddAttachment(ctx, a)
	if err != nil {
		return Attachment{}, err
	}
	if l := cv.held(a.ConversationID); l != nil {
		l.added(a, r)
	}
	return a, nil
}

// AttachTemplate expands t with values and attaches the result, with the
// template's annotations.
func (cv *Conversations) AttachTemplate(ctx context.Context, conv int64, c *Conn, t Template, values map[string]string) (Attachment, error) {
	return cv.attachExpanded(ctx, conv, c, t, values, FromTemplate)
}

func (cv *Conversations) attachExpanded(ctx context.Context, conv int64, c *Conn, t Template, values map[string]string, origin Origin) (Attachment, error) {
	uri, err := expand.URI(t.URITemplate, values)
	if err != nil {
		return Attachment{}, err
	}
	a := Attachment{ConversationID: conv, Server: Ref(c.Server), Account: c.Account.Name,
		URI: uri, Origin: origin, Template: t.URITemplate, Title: t.DisplayName(), Annotations: t.Annotations}
	if origin == FromID {
		a = withListed(ctx, c, a)
	}
	return cv.add(ctx, c, a)
}

// AttachID attaches a threengram memory by id: the id becomes a URI through
// the template the server advertises with a single variable named id
// (threengram://memory/{id}), never by pasting strings together.
func (cv *Conversations) AttachID(ctx context.Context, conv int64, c *Conn, id string) (Attachment, error) {
	t, err := c.IDTemplate(ctx)
	if err != nil {
		return Attachment{}, err
	}
	return cv.attachExpanded(ctx, conv, c, t, map[string]string{"id": id}, FromID)
}

// IDTemplate returns the server's template whose only variable is "id",
// preferring a threengram one.
func (c *Conn) IDTemplate(ctx context.Context) (Template, error) {
	var found []Template
	for t, err := range c.Templates(ctx, nil) {
		if err != nil {
			return Template{}, err
		}
		if vars, err := expand.Variables(t.URITemplate); err == nil && slices.Equal(vars, []string{"id"}) {
			found = append(found, t)
		}
	}
	if len(found) == 0 {
		return Template{}, newError(fault.KindInvalidParams, nil, "%s advertises no template with a single {id} variable to attach by id", c.Server.Name)
	}
	if i := slices.IndexFunc(found, func(t Template) bool { return strings.HasPrefix(t.URITemplate, "threengram:") }); i >= 0 {
		return found[i], nil
	}
	return found[0], nil
}

// maxLookupPages bounds the search of a listing for a URI's annotations.
const maxLookupPages = 50

// AttachURI attaches a URI typed or pasted by the person. Its annotations
// come from its exact entry in the listing, which is more specific than a
// template it also matches (a resource listed for the user only must not
// reach the model because a template says "assistant"), field by field
// (see withListed); else from the first template it matches.
func (cv *Conversations) AttachURI(ctx context.Context, conv int64, c *Conn, uri string) (Attachment, error) {
	a := Attachment{ConversationID: conv, Server: Ref(c.Server), Account: c.Account.Name, URI: uri, Origin: FromList, Title: uri}
	for t, err := range c.Templates(ctx, nil) {
		if err != nil {
			break
		}
		if tm, err := uritemplate.New(t.URITemplate); err == nil && tm.Regexp().MatchString(uri) {
			a.Origin, a.Template, a.Title, a.Annotations = FromTemplate, t.URITemplate, t.DisplayName(), t.Annotations
			break
		}
	}
	return cv.add(ctx, c, withListed(ctx, c, a))
}

// withListed gives a, attached directly by URI or id, the title and the
// annotations of its exact entry in the server's listing (searched up to
// maxLookupPages pages), if it has one. The entry's annotations win field
// by field; a field the entry leaves out keeps the template's.
func withListed(ctx context.Context, c *Conn, a Attachment) Attachment {
	pages := 0
	for r, err := range c.Resources(ctx, func(ListProgress) { pages++ }) {
		if err != nil || pages > maxLookupPages {
			break
		}
		if r.URI == a.URI {
			a.Title, a.Annotations = r.DisplayName(), overlay(r.Annotations, a.Annotations)
			break
		}
	}
	return a
}

// overlay returns the annotations of specific, with each field it leaves
// out taken from general.
func overlay(specific, general pack.Annotations) pack.Annotations {
	out := specific
	if len(out.Audience) == 0 {
		out.Audience = general.Audience
	}
	if out.Priority == nil {
		out.Priority = general.Priority
	}
	if out.LastModified == "" {
		out.LastModified = general.LastModified
	}
	return out
}

// Rank reads every attachment of conv through the cache and packs them
// under the budget (see pack.Rank). Unreadable attachments are ranked with their
// error. The attachments are returned in the order of the items.
func (cv *Conversations) Rank(ctx context.Context, conv int64, opts *pack.RankOptions) (pack.Packing, []Attachment, error) {
	items, atts, err := cv.Items(ctx, conv)
	if err != nil {
		return pack.Packing{}, nil, err
	}
	return pack.Rank(items, opts), atts, nil
}

// Items reads every attachment of conv through the cache and returns them
// as items to rank, in the order of the attachments, which it also
// returns. An unreadable attachment is an item with its error. A screen
// follows a conversation through Live instead, which keeps the items: it
// ranks them again with a pack.Ranker when the budget, a pin or a
// priority changes, reading nothing again.
func (cv *Conversations) Items(ctx context.Context, conv int64) ([]*pack.Item, []Attachment, error) {
	atts, err := cv.store.Attachments(ctx, conv)
	if err != nil {
		return nil, nil, err
	}
	reads := cv.readAll(ctx, atts)
	items := make([]*pack.Item, len(reads))
	for i, r := range reads {
		items[i] = r.Item
	}
	return items, atts, nil
}

func itemOf(a Attachment) *pack.Item {
	return &pack.Item{ID: fmt.Sprint(a.ID), Server: a.Server.Name, Account: a.Account, URI: a.URI,
		Annotations: a.Annotations, PriorityOverride: a.PriorityOverride, Pinned: a.Pinned, Order: a.Position}
}
