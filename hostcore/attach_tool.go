package hostcore

import (
	"context"
	"errors"

	"github.com/yosida95/uritemplate/v3"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

// A tool's result may carry resources: embedded whole, or linked by uri.
// The person attaches either by its uri, through the same path as a uri
// they type (AttachURI): the attachment is then what every other one is,
// a resource the host reads from the tool's server as the same account,
// caches in that account's partition, watches for changes and ranks by
// its audience and priority. A copy of an embedded body as it was
// delivered would be none of these: it would never go stale, never be
// re-read, and keep a body outside the cache's rules. So an embedded
// resource whose uri the server cannot read is not attached; the person
// is told so, and the body stays in the result where it was delivered.

// AttachToolContent attaches the resource that tc (an entry of a tool
// result of c's server, read as c's account) embeds or links to, by its
// uri. Its annotations are those of the uri's exact entry in the server's
// listing, else tc's own, else those of the first template the uri
// matches, field by field; its title is the link's title or name, else
// the template's, else the uri. The resource is read first (see add): one
// the server says does not exist is not attached.
func (cv *Conversations) AttachToolContent(ctx context.Context, conv int64, c *Conn, tc toolcall.Content) (Attachment, error) {
	uri := tc.ResourceURI()
	if uri == "" {
		return Attachment{}, newError(fault.KindUsage, nil, "a %s entry of a tool result is no resource to attach", tc.Kind)
	}
	a := Attachment{ConversationID: conv, Server: Ref(c.Server), Account: c.Account.Name, URI: uri, Origin: FromTool,
		Title: firstOf(tc.Title, tc.Name, uri), Annotations: tc.Annotations}
	for t, err := range c.Templates(ctx, nil) {
		if err != nil {
			break
		}
		if tm, err := uritemplate.New(t.URITemplate); err == nil && tm.Regexp().MatchString(uri) {
			a.Template, a.Annotations = t.URITemplate, overlay(a.Annotations, t.Annotations)
			if tc.Title == "" && tc.Name == "" {
				a.Title = t.DisplayName()
			}
			break
		}
	}
	att, err := cv.add(ctx, c, withListed(ctx, c, a))
	if errors.Is(err, fault.ErrNotFound) && tc.Kind == toolcall.ContentResource {
		return Attachment{}, newError(fault.KindNotFound, err, "%s cannot read %s by its uri, so it is not attached; the tool's result keeps the body it delivered", c.Server.Name, uri)
	}
	return att, err
}

// firstOf is the first of s that is not empty.
func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
