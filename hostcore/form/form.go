// Package form is an elicitation's form (SEP-1034, SEP-1330): the fields
// of a requested schema, and the checking of a person's answers against
// them. It is pure: it reads JSON and checks values, and imports nothing
// of the sessions.
package form

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Field is one property of a requested schema.
type Field struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Type is string, number, integer, boolean, or array (a multi-select).
	Type string `json:"type"`
	// Format is a string's format: email, uri, date, date-time.
	Format string `json:"format,omitempty"`
	// Options are the choices of an enum (Type string) or a multi-select.
	Options []Option `json:"options,omitempty"`
	// Default is the schema's default as a JSON value, nil when none.
	Default  any  `json:"default,omitempty"`
	Required bool `json:"required,omitempty"`

	MinLength, MaxLength *int     `json:"-"`
	Minimum, Maximum     *float64 `json:"-"`
	MinItems, MaxItems   *int     `json:"-"`
}

// Option is one choice of an enum.
type Option struct {
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
}

// Label is the field's title, else its name.
func (f Field) Label() string { return firstNonEmpty(f.Title, f.Name) }

// Label is the option's title, else its value.
func (o Option) Label() string { return firstNonEmpty(o.Title, o.Value) }

// schemaObject is a requested schema as sent: an object of properties.
type schemaObject struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

// property is one property as sent (SEP-1034, SEP-1330).
type property struct {
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

// Parse reads a requested schema into fields, in name order
// (go-sdk hands the schema over as a map, so the server's order is gone).
// A schema that is not a flat object of primitive properties is an error.
func Parse(schema any) ([]Field, error) {
	if schema == nil {
		return nil, nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s schemaObject
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the requested schema is not a JSON object: %w", err)
	}
	if s.Type != "" && s.Type != "object" {
		return nil, fmt.Errorf("the requested schema is of type %q, not object", s.Type)
	}
	var out []Field
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		f, err := parseProperty(name, s.Properties[name], slices.Contains(s.Required, name))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parseProperty(name string, raw json.RawMessage, required bool) (Field, error) {
	var p property
	if err := json.Unmarshal(raw, &p); err != nil {
		return Field{}, fmt.Errorf("property %q: %w", name, err)
	}
	f := Field{Name: name, Title: p.Title, Description: p.Description, Type: p.Type, Format: p.Format, Required: required,
		MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum, MinItems: p.MinItems, MaxItems: p.MaxItems}
	switch {
	case p.Type == "array" && p.Items != nil:
		f.Options = options(p.Items.Enum, nil, append(p.Items.AnyOf, p.Items.OneOf...))
	case p.Type == "string" || p.Type == "":
		f.Type = "string"
		f.Options = options(p.Enum, p.EnumNames, p.OneOf)
	case p.Type == "number", p.Type == "integer", p.Type == "boolean":
	default:
		return Field{}, fmt.Errorf("property %q has type %q: a form holds strings, numbers, integers, booleans and choices", name, p.Type)
	}
	if f.Type == "array" && len(f.Options) == 0 {
		return Field{}, fmt.Errorf("property %q is an array without choices", name)
	}
	if len(p.Default) > 0 && string(p.Default) != "null" {
		v, err := decodeDefault(f, p.Default)
		if err != nil {
			return Field{}, fmt.Errorf("property %q: default %s: %w", name, p.Default, err)
		}
		f.Default = v
	}
	return f, nil
}

// options are an enum's choices, from enum (titled by enumNames, the
// legacy form) or from oneOf/anyOf consts.
func options(enum, names []string, consts []titledConst) []Option {
	var out []Option
	for i, v := range enum {
		o := Option{Value: v}
		if i < len(names) {
			o.Title = names[i]
		}
		out = append(out, o)
	}
	for _, c := range consts {
		out = append(out, Option{Value: c.Const, Title: c.Title})
	}
	return out
}

// decodeDefault reads a default into the field's JSON value, checked.
func decodeDefault(f Field, raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return f.Check(v)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
