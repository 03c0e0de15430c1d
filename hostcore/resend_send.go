package hostcore

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/resend"
	"github.com/attache/attache/hostcore/toolcall"
)

// Resend sends req, a request resend.Parse accepted, on this
// connection, the way the host sends it itself (see package resend). A reply
// that is an error comes back as the error, with the Result filled in: the
// request went out all the same.
func (c *Conn) Resend(ctx context.Context, req resend.ClientRequest, opts *resend.Options) (resend.Result, error) {
	out := resend.Result{Method: req.Method}
	p, err := req.Decode()
	if err != nil {
		return out, err
	}
	if opts == nil {
		opts = &resend.Options{}
	}
	mark := c.tap.Last()
	var note string
	switch req.Method {
	case "tools/call":
		out.Decision, note, err = c.resendCall(ctx, p, opts)
	case "resources/subscribe", "resources/unsubscribe", "subscriptions/listen":
		uris := []string{p.URI}
		if req.Method == "subscriptions/listen" {
			uris, _ = p.ListenURIs()
		}
		note, err = c.host.subs.Resend(ctx, c, req.Method, uris)
	default:
		note, err = c.resendOther(ctx, req.Method, p)
	}
	out.Note = note
	if e, ok := c.tap.SentSince(mark, resend.WireMethods(req.Method)...); ok {
		out.ID, out.Seq = e.ID, e.Seq
	}
	return out, err
}

// resendCall runs a tools/call through the consent gate, as a person's
// own call: the request is the approval, a destructive tool is confirmed.
func (c *Conn) resendCall(ctx context.Context, p resend.Params, opts *resend.Options) (*consent.ToolDecision, string, error) {
	scope, err := c.host.consent.Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAsk, Ask: opts.Confirm})
	if err != nil {
		return nil, "", err
	}
	permit := scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: p.Name}, Arguments: p.Arguments})
	d := permit.ToolDecision
	res, err := c.CallTool(ctx, permit)
	if err != nil {
		return &d, d.String(), err
	}
	note := d.String()
	if res.IsError {
		note += "; the tool reported an error"
	}
	return &d, note, nil
}

// resendOther sends the requests that have no effect on the host's state
// beyond the cache: reads, pages, completions, pings.
func (c *Conn) resendOther(ctx context.Context, method string, p resend.Params) (string, error) {
	switch method {
	case "resources/read":
		res, err := c.Read(ctx, p.URI, ReadRefresh)
		if err != nil {
			return "", err
		}
		entries := "entries"
		if len(res.Contents) == 1 {
			entries = "entry"
		}
		return fmt.Sprintf("%d %s, %s", len(res.Contents), entries, resend.Bytes(res.Size())), nil
	case "resources/list", "resources/templates/list", "tools/list", "prompts/list":
		page, err := c.ListPage(ctx, method, p.Cursor)
		return pageNote(page), err
	}
	op := "sending " + method + " to " + c.Server.Name
	_, err := call(ctx, c, op, p.URI, func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, resend.SendPlain(ctx, cs, method, p)
	})
	return "", err
}

// pageNote says what a page held and where the next starts.
func pageNote(p ListPage) string {
	s := fmt.Sprintf("%d items", len(p.Items))
	if p.Next != "" {
		return s + ", nextCursor " + clip(p.Next)
	}
	return s + ", the last page"
}
