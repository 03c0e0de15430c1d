package hostcore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

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
	Fields []ElicitField
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
	fields, err := ParseElicitSchema(p.RequestedSchema)
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
		return nil, newError(KindUsage, nil, "%s: %q is not an answer (accept, decline or cancel)", who, ans.Action)
	}
	content, err := CompleteAnswer(fields, ans.Content)
	if err != nil {
		return nil, newError(KindInvalidParams, err, "%s: the answer does not fit %s's form: %v", who, c.Server.Name, err)
	}
	return &mcp.ElicitResult{Action: string(ElicitAccept), Content: content}, nil
}

// ElicitField is one property of a requested schema.
type ElicitField struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Type is string, number, integer, boolean, or array (a multi-select).
	Type string `json:"type"`
	// Format is a string's format: email, uri, date, date-time.
	Format string `json:"format,omitempty"`
	// Options are the choices of an enum (Type string) or a multi-select.
	Options []ElicitOption `json:"options,omitempty"`
	// Default is the schema's default as a JSON value, nil when none.
	Default  any  `json:"default,omitempty"`
	Required bool `json:"required,omitempty"`

	MinLength, MaxLength *int     `json:"-"`
	Minimum, Maximum     *float64 `json:"-"`
	MinItems, MaxItems   *int     `json:"-"`
}

// ElicitOption is one choice of an enum.
type ElicitOption struct {
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
}

// Label is the field's title, else its name.
func (f ElicitField) Label() string { return firstNonEmpty(f.Title, f.Name) }

// Label is the option's title, else its value.
func (o ElicitOption) Label() string { return firstNonEmpty(o.Title, o.Value) }

// elicitSchema is a requested schema as sent: an object of properties.
type elicitSchema struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

// elicitProperty is one property as sent (SEP-1034, SEP-1330).
type elicitProperty struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []titledConst   `json:"oneOf"`
	AnyOf       []titledConst   `json:"anyOf"`
	Items       *struct {
		Enum  []string      `json:"enum"`
		AnyOf []titledConst `json:"anyOf"`
		OneOf []titledConst `json:"oneOf"`
	} `json:"items"`
	MinLength *int     `json:"minLength"`
	MaxLength *int     `json:"maxLength"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MinItems  *int     `json:"minItems"`
	MaxItems  *int     `json:"maxItems"`
}

type titledConst struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// ParseElicitSchema reads a requested schema into fields, in name order
// (go-sdk hands the schema over as a map, so the server's order is gone).
// A schema that is not a flat object of primitive properties is an error.
func ParseElicitSchema(schema any) ([]ElicitField, error) {
	if schema == nil {
		return nil, nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s elicitSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the requested schema is not a JSON object: %w", err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, fmt.Errorf("the requested schema is of type %q, not object", s.Type)
	}
	var out []ElicitField
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		f, err := parseElicitProperty(name, s.Properties[name], slices.Contains(s.Required, name))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parseElicitProperty(name string, raw json.RawMessage, required bool) (ElicitField, error) {
	var p elicitProperty
	if err := json.Unmarshal(raw, &p); err != nil {
		return ElicitField{}, fmt.Errorf("property %q: %w", name, err)
	}
	f := ElicitField{Name: name, Title: p.Title, Description: p.Description, Type: p.Type, Format: p.Format, Required: required,
		MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum, MinItems: p.MinItems, MaxItems: p.MaxItems}
	switch {
	case p.Type == "array" && p.Items != nil:
		f.Options = options(p.Items.Enum, nil, append(p.Items.AnyOf, p.Items.OneOf...))
	case p.Type == "string" || p.Type == "":
		f.Type = "string"
		f.Options = options(p.Enum, p.EnumNames, p.OneOf)
	case p.Type == "number", p.Type == "integer", p.Type == "boolean":
	default:
		return ElicitField{}, fmt.Errorf("property %q has type %q: a form holds strings, numbers, integers, booleans and choices", name, p.Type)
	}
	if f.Type == "array" && len(f.Options) == 0 {
		return ElicitField{}, fmt.Errorf("property %q is an array without choices", name)
	}
	if len(p.Default) > 0 && string(p.Default) != "null" {
		v, err := decodeDefault(f, p.Default)
		if err != nil {
			return ElicitField{}, fmt.Errorf("property %q: default %s: %w", name, p.Default, err)
		}
		f.Default = v
	}
	return f, nil
}

// options are an enum's choices, from enum (titled by enumNames, the
// legacy form) or from oneOf/anyOf consts.
func options(enum, names []string, consts []titledConst) []ElicitOption {
	var out []ElicitOption
	for i, v := range enum {
		o := ElicitOption{Value: v}
		if i < len(names) {
			o.Title = names[i]
		}
		out = append(out, o)
	}
	for _, c := range consts {
		out = append(out, ElicitOption{Value: c.Const, Title: c.Title})
	}
	return out
}

// decodeDefault reads a default into the field's JSON value, checked.
func decodeDefault(f ElicitField, raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return f.Check(v)
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
