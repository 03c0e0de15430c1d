package hostcore

import (
	"context"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/form"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation, form mode (2025-11-25 and 2026-07-28, with SEP-1034's
// defaults): a server asks the person for a few values, described by a
// flat JSON Schema of primitive properties, and gets accept (with the
// values), decline or cancel. It arrives two ways: as an
// elicitation/create request from the server (during a tool call, on the
// older protocol versions), and as an input request inside an
// input_required result (mrtr.go). Both reach the host's Elicitor, the
// front end's way to ask the person: a dialog in the app, a prompt on a
// terminal in attachectl, or a fixed answer for scripts.
//
// The host declares the elicitation capability (form mode only) only when
// it has an Elicitor: a server then knows it may ask. Without one, a
// server that asks anyway gets an error that says so.

// ElicitAction is the person's answer to an elicitation.
type ElicitAction string

// The answers.
const (
	ElicitAccept  ElicitAction = "accept"  // submitted, with the values
	ElicitDecline ElicitAction = "decline" // refused explicitly
	ElicitCancel  ElicitAction = "cancel"  // dismissed without choosing
)

// ElicitRequest is a form a server asks the person to fill.
type ElicitRequest struct {
	// Server and Account name the connection that asked.
	Server, Account string
	// Via says which request asked ("reading ts2://x", "calling the tool
	// t of s"); empty for an elicitation/create the server sent on its own.
	Via string
	// Message is the server's text, to show as it is (escaped on a
	// terminal).
	Message string
	// Fields are the requested schema's properties, by name.
	Fields []form.Field
}

// ElicitAnswer is what the person chose. Content holds the values of an
// accept, by field name, as JSON values (string, float64 or int64 for a
// number or integer, bool, []string for a multi-select).
type ElicitAnswer struct {
	Action  ElicitAction
	Content map[string]any
}

// Elicitor asks the person to fill req. It is called from the goroutine of
// the request that asked and may block until the person answers or ctx
// ends (then it returns ctx's error, or a cancel). Front ends build the
// form from req.Fields with each field's Default filled in.
type Elicitor func(ctx context.Context, req ElicitRequest) (ElicitAnswer, error)

// elicitCapabilities is what the host declares when it can ask: form mode.
func elicitCapabilities() *mcp.ElicitationCapabilities {
	return &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
}

// elicitHandler answers an elicitation/create request the server sent.
func (c *Conn) elicitHandler(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return c.elicit(ctx, "", req.Params)
}

// elicit asks the person through the host's Elicitor and returns the
// answer for the server: an accept carries every field, the defaults of
// those left out applied (SEP-1034), checked against the schema.
func (c *Conn) elicit(ctx context.Context, via string, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	who := via
	if who == "" {
		who = "answering " + c.Server.Name
	}
	ask := c.host.opts.Elicit
	switch {
	case p == nil:
		return nil, protocolError("", "%s: %s sent an elicitation without parameters", who, c.Server.Name)
	case p.Mode == "url" || p.URL != "":
		return nil, protocolError("", "%s: %s asked to open a URL (url elicitation), which this client did not declare", who, c.Server.Name)
	case ask == nil:
		return nil, protocolError("", "%s: %s asked for input (elicitation), which this client did not declare: nobody is there to answer", who, c.Server.Name)
	}
	fields, err := form.Parse(p.RequestedSchema)
	if err != nil {
		return nil, protocolError("", "%s: %s asked for input with a schema the host cannot show: %v", who, c.Server.Name, err)
	}
	req := ElicitRequest{Server: c.Server.Name, Account: c.Account.Name, Via: via, Message: p.Message, Fields: fields}
	ans, err := ask(askerOf(ctx), req)
	if err != nil {
		return nil, classify(err, who+": asking for "+c.Server.Name+"'s input", "", 0)
	}
	c.host.log.Info("elicitation answered", "server", c.Server.Name, "via", via, "action", ans.Action)
	switch ans.Action {
	case ElicitDecline, ElicitCancel:
		return &mcp.ElicitResult{Action: string(ans.Action)}, nil
	case ElicitAccept:
	default:
		return nil, newError(fault.KindUsage, nil, "%s: %q is not an answer (accept, decline or cancel)", who, ans.Action)
	}
	content, err := form.CompleteAnswer(fields, ans.Content)
	if err != nil {
		return nil, newError(fault.KindInvalidParams, err, "%s: the answer does not fit %s's form: %v", who, c.Server.Name, err)
	}
	return &mcp.ElicitResult{Action: string(ElicitAccept), Content: content}, nil
}

// askerKey carries the context of the caller a shared request (a single
// flight, cached_read.go) runs for: the person is asked under it, so that
// the question goes when that caller gives up, and the request's own
// timeouts do not cut the person short.
type askerKey struct{}

func withAsker(ctx, caller context.Context) context.Context {
	return context.WithValue(ctx, askerKey{}, caller)
}

func askerOf(ctx context.Context) context.Context {
	if caller, ok := ctx.Value(askerKey{}).(context.Context); ok {
		return caller
	}
	return ctx
}
