package hostcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sentParams are the params of every method the console sends, as the
// host reads them (ParseClientRequest has refused any other).
type sentParams struct {
	Cursor    string          `json:"cursor"`
	URI       string          `json:"uri"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Ref       *struct {
		Type string `json:"type"`
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"ref"`
	Argument *struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
	Level         string                     `json:"level"`
	Notifications map[string]json.RawMessage `json:"notifications"`
}

// decode reads the request's params, and checks what their types alone do
// not say.
func (r ClientRequest) decode() (sentParams, error) {
	var p sentParams
	if err := json.Unmarshal(r.Params, &p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return p, usage("the parameter %q of %s must be a JSON %s, not a %s", te.Field, r.Method, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return p, usage("the params of %s: %v", r.Method, err)
	}
	return p, p.check(r.Method)
}

// jsonKind names a Go kind as JSON does.
func jsonKind(k string) string {
	switch k {
	case "map", "struct":
		return "object"
	case "slice":
		return "array"
	}
	return k
}

// loggingLevels are the levels of logging/setLevel.
var loggingLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func (p sentParams) check(method string) error {
	switch method {
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if p.URI == "" {
			return usage("%s needs a uri", method)
		}
	case "tools/call", "prompts/get":
		if p.Name == "" {
			return usage("%s needs a name", method)
		}
		if method == "tools/call" {
			if _, err := consent.ParseArguments(p.Arguments); err != nil {
				return usage("the arguments of tools/call must be a JSON object (%v)", err)
			}
		} else if err := json.Unmarshal(orEmpty(p.Arguments), new(map[string]string)); err != nil {
			return usage("the arguments of prompts/get must be an object of strings")
		}
	case "completion/complete":
		if p.Ref == nil || (p.Ref.Type != "ref/resource" && p.Ref.Type != "ref/prompt") {
			return usage(`completion/complete needs a ref of type "ref/resource" or "ref/prompt"`)
		}
		if p.Argument == nil || p.Argument.Name == "" {
			return usage("completion/complete needs an argument with a name")
		}
	case "logging/setLevel":
		if !slices.Contains(loggingLevels, p.Level) {
			return usage("logging/setLevel: the level %q is none of %s", p.Level, strings.Join(loggingLevels, ", "))
		}
	case "subscriptions/listen":
		_, err := p.listenURIs()
		return err
	}
	return nil
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// listenURIs are the resources a subscriptions/listen asks for: the only
// part of it the console sends (the host listens for list changes itself).
func (p sentParams) listenURIs() ([]string, error) {
	var uris []string
	for k, v := range p.Notifications {
		if k != "resourceSubscriptions" {
			return nil, usage("subscriptions/listen: the host listens for %q itself; the console sends resourceSubscriptions only", k)
		}
		if err := json.Unmarshal(v, &uris); err != nil {
			return nil, usage("subscriptions/listen: resourceSubscriptions must be an array of URIs")
		}
	}
	if len(uris) == 0 || slices.Contains(uris, "") {
		return nil, usage("subscriptions/listen needs notifications.resourceSubscriptions, the URIs to subscribe to")
	}
	return uris, nil
}

// Resent says what Resend sent.
type Resent struct {
	Method string
	// ID is the request's JSON-RPC id as the session sent it (the next of
	// its own), and Seq its message in the connection's record; "" and 0
	// when nothing went on the wire (Note says why).
	ID  string
	Seq uint64
	// Note says what the host made of it: a page's cursor, a subscription
	// already held, the era's way of unsubscribing.
	Note string
	// Decision is the consent gate's, for a tools/call.
	Decision *consent.ToolDecision
}

// ResendOptions configure Resend. The zero value is usable.
type ResendOptions struct {
	// Confirm asks the person to confirm a tools/call of a tool the server
	// says is destructive; nil means no one can, and such a call is not
	// run. Any other tool runs: the person pressing Resend asked for it.
	Confirm consent.AskFunc
}

// Resend sends req, a request ParseClientRequest accepted, on this
// connection, the way the host sends it itself (see resend.go). A reply
// that is an error comes back as the error, with the Resent filled in: the
// request went out all the same.
func (c *Conn) Resend(ctx context.Context, req ClientRequest, opts *ResendOptions) (Resent, error) {
	out := Resent{Method: req.Method}
	p, err := req.decode()
	if err != nil {
		return out, err
	}
	if opts == nil {
		opts = &ResendOptions{}
	}
	mark := c.tap.Last()
	var note string
	switch req.Method {
	case "tools/call":
		out.Decision, note, err = c.resendCall(ctx, p, opts)
	case "resources/subscribe", "resources/unsubscribe", "subscriptions/listen":
		note, err = c.resendSubscription(ctx, req.Method, p)
	default:
		note, err = c.resendOther(ctx, req.Method, p)
	}
	out.Note = note
	if e, ok := c.tap.SentSince(mark, wireMethods(req.Method)...); ok {
		out.ID, out.Seq = e.ID, e.Seq
	}
	return out, err
}

// wireMethods are the methods a request goes on the wire as: a
// subscription is subscriptions/listen at 2026-07-28.
func wireMethods(method string) []string {
	if method == "resources/subscribe" || method == "subscriptions/listen" {
		return []string{"resources/subscribe", "subscriptions/listen"}
	}
	return []string{method}
}

// resendCall runs a tools/call through the consent gate, as a person's
// own call: the request is the approval, a destructive tool is confirmed.
func (c *Conn) resendCall(ctx context.Context, p sentParams, opts *ResendOptions) (*consent.ToolDecision, string, error) {
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

// resendSubscription subscribes or unsubscribes as the person, one
// counted borrow of the connection's subscription.
func (c *Conn) resendSubscription(ctx context.Context, method string, p sentParams) (string, error) {
	subs := c.host.subs
	uris := []string{p.URI}
	if method == "subscriptions/listen" {
		uris, _ = p.listenURIs()
	}
	var notes []string
	for _, uri := range uris {
		held := c.Subscriptions()[uri]
		var err error
		if method == "resources/unsubscribe" {
			err = subs.Unsubscribe(ctx, c, uri)
		} else {
			err = subs.Subscribe(ctx, c, uri)
		}
		if err != nil {
			return strings.Join(notes, "; "), err
		}
		notes = append(notes, subscriptionNote(method, uri, held, c.Subscriptions()[uri]))
	}
	return strings.Join(notes, "; "), nil
}

// subscriptionNote says what a subscription request did to the count.
func subscriptionNote(method, uri string, before, after int) string {
	switch {
	case method == "resources/unsubscribe" && after > 0:
		return fmt.Sprintf("gave back your subscription to %s; %d other borrower(s) keep it, so the server was not told", uri, after)
	case method == "resources/unsubscribe":
		return "unsubscribed from " + uri
	case before == after:
		return "you already subscribe to " + uri + ": nothing was sent"
	case before > 0:
		return fmt.Sprintf("subscribed to %s: the connection held it already (%d borrower(s)), so nothing was sent", uri, before)
	}
	return "subscribed to " + uri
}

// resendOther sends the requests that have no effect on the host's state
// beyond the cache: reads, pages, completions, pings.
func (c *Conn) resendOther(ctx context.Context, method string, p sentParams) (string, error) {
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
		return fmt.Sprintf("%d %s, %s", len(res.Contents), entries, pluralBytes(res.Size())), nil
	case "resources/list", "resources/templates/list", "tools/list", "prompts/list":
		page, err := c.ListPage(ctx, method, p.Cursor)
		return pageNote(page), err
	}
	op := "sending " + method + " to " + c.Server.Name
	_, err := call(ctx, c, op, p.URI, func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, sendPlain(ctx, cs, method, p)
	})
	return "", err
}

// sendPlain sends the requests whose answers the host keeps nothing of.
func sendPlain(ctx context.Context, cs *mcp.ClientSession, method string, p sentParams) error {
	switch method {
	case "ping":
		return cs.Ping(ctx, nil)
	case "prompts/get":
		var args map[string]string
		json.Unmarshal(orEmpty(p.Arguments), &args)
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		return err
	case "completion/complete":
		params := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: p.Ref.Type, URI: p.Ref.URI, Name: p.Ref.Name},
			Argument: mcp.CompleteParamsArgument{Name: p.Argument.Name, Value: p.Argument.Value}}
		if p.Context != nil {
			params.Context = &mcp.CompleteContext{Arguments: p.Context.Arguments}
		}
		_, err := cs.Complete(ctx, params)
		return err
	case "logging/setLevel":
		return cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(p.Level)})
	}
	return usage("%s is not a request the console sends", method)
}

// pageNote says what a page held and where the next starts.
func pageNote(p ListPage) string {
	s := fmt.Sprintf("%d items", len(p.Items))
	if p.Next != "" {
		return s + ", nextCursor " + clip(p.Next)
	}
	return s + ", the last page"
}

func pluralBytes(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
