// Package toolform makes a form of a tool's arguments from its inputSchema
// (JSON Schema 2020-12, and the draft-07 shapes servers still send), and
// turns what the person fills in into the arguments of a call, or the
// arguments back into the form. It does no I/O and knows nothing of a
// screen: a front end draws a Field tree and edits a Value tree.
//
// What has a field of its own: strings (a format and a length are hints),
// numbers and integers (bounds are hints), booleans, enums and consts,
// arrays of any of these (items added and removed), and objects with
// properties, nested as deep as the schema goes, in the schema's own
// order. Defaults fill the fields; required ones are marked. A type that
// also allows null ("type": ["string", "null"], or anyOf with
// {"type": "null"}) is its other type. Local references ($ref to
// #/$defs/NAME or #/definitions/NAME) are followed. What a form cannot
// hold (a value of several types, oneOf/anyOf of objects, a map with no
// properties, a tuple, a recursion past MaxDepth) is a JSON field: the
// person writes that value as JSON.
package toolform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Kind says how a field is filled in.
type Kind string

// The kinds of field.
const (
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBoolean Kind = "boolean"
	// KindEnum is a choice among Enum (the schema's enum, or its const).
	KindEnum   Kind = "enum"
	KindArray  Kind = "array"
	KindObject Kind = "object"
	// KindJSON is a value written as JSON, for what a form cannot hold.
	KindJSON Kind = "json"
)

// MaxDepth bounds how deep the form nests; deeper, a field is KindJSON.
const MaxDepth = 8

// Field is one field of the form: the root (the arguments object), a
// property of an object, or the items of an array.
type Field struct {
	// Name is the property's name; "" for the root and for array items.
	Name        string
	Title       string
	Description string
	Kind        Kind
	// Required says the object that holds the field requires it.
	Required bool
	// Nullable says the schema also allows null.
	Nullable bool
	// Default is the schema's default, as JSON; nil for none.
	Default json.RawMessage
	// Enum are the choices of a KindEnum field, as JSON.
	Enum []json.RawMessage
	// Hint states the schema's constraints in words: "format uri",
	// "1 to 10", "at most 3 items".
	Hint string
	// Items is the field of each item of a KindArray field.
	Items *Field
	// Fields are a KindObject field's properties, in the schema's order.
	Fields []*Field
	// Why says why a field is KindJSON, or why the root has fewer fields
	// than the arguments may hold (written in JSON, then).
	Why string
}

// Label is the field's name as a person reads it: its title, else its
// name.
func (f *Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Parse reads an inputSchema. An empty or null schema is an object with
// no properties (a tool without parameters). A schema that is not an
// object schema is an error: the arguments of a call are an object.
func Parse(schema json.RawMessage) (*Field, error) {
	s := bytes.TrimSpace(schema)
	if len(s) == 0 || string(s) == "null" {
		return &Field{Kind: KindObject}, nil
	}
	var root node
	if err := json.Unmarshal(s, &root); err != nil {
		return nil, fmt.Errorf("reading the input schema: %w", err)
	}
	p := &parser{root: &root}
	f := p.field(&root, 0)
	switch f.Kind {
	case KindObject:
		return f, nil
	case KindJSON:
		// An object of any keys, or a shape the form cannot hold: a form
		// of no fields, and the arguments written as JSON.
		return &Field{Kind: KindObject, Title: f.Title, Description: f.Description, Why: f.Why}, nil
	}
	return nil, errors.New("the input schema does not describe an object: a tool's arguments are one")
}

// node is a schema as the form reads it: the keywords it uses, with the
// properties in their order.
type node struct {
	Ref         string            `json:"$ref"`
	Defs        map[string]*node  `json:"$defs"`
	Definitions map[string]*node  `json:"definitions"`
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Format      string            `json:"format"`
	Minimum     *json.Number      `json:"minimum"`
	Maximum     *json.Number      `json:"maximum"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
	Pattern     string            `json:"pattern"`
	Items       json.RawMessage   `json:"items"`
	PrefixItems []json.RawMessage `json:"prefixItems"`
	Properties  orderedNodes      `json:"properties"`
	Required    []string          `json:"required"`
	AddProps    json.RawMessage   `json:"additionalProperties"`
	AnyOf       []*node           `json:"anyOf"`
	OneOf       []*node           `json:"oneOf"`
	AllOf       []*node           `json:"allOf"`
}

// orderedNodes is a properties object, its keys in the order written.
type orderedNodes struct {
	names []string
	nodes map[string]*node
}

// UnmarshalJSON reads the object key by key.
func (o *orderedNodes) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("properties is not an object")
	}
	o.nodes = map[string]*node{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		n := &node{}
		if err := dec.Decode(n); err != nil {
			return fmt.Errorf("property %q: %w", name, err)
		}
		if _, dup := o.nodes[name]; !dup {
			o.names = append(o.names, name)
		}
		o.nodes[name] = n
	}
	return nil
}

// types is the node's type keyword as a list.
func (n *node) types() []string {
	if len(n.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(n.Type, &many)
	return many
}

// jsonField is a field the person writes as JSON, saying why.
func jsonField(n *node, why string) *Field {
	return &Field{Kind: KindJSON, Title: n.Title, Description: n.Description, Default: n.Default, Why: why}
}

// parser follows references within one root schema.
type parser struct{ root *node }

// resolve follows n's local reference, if it has one.
func (p *parser) resolve(n *node) (*node, error) {
	for hops := 0; n.Ref != ""; hops++ {
		if hops > MaxDepth {
			return nil, errors.New("references go round in a circle")
		}
		var defs map[string]*node
		name := ""
		switch {
		case strings.HasPrefix(n.Ref, "#/$defs/"):
			defs, name = p.root.Defs, strings.TrimPrefix(n.Ref, "#/$defs/")
		case strings.HasPrefix(n.Ref, "#/definitions/"):
			defs, name = p.root.Definitions, strings.TrimPrefix(n.Ref, "#/definitions/")
		case n.Ref == "#":
			n = p.root
			continue
		default:
			return nil, fmt.Errorf("a reference the form cannot follow: %s", n.Ref)
		}
		next := defs[name]
		if next == nil {
			return nil, fmt.Errorf("a reference to nothing: %s", n.Ref)
		}
		n = withOwn(next, n)
	}
	return n, nil
}

// withOwn is target with the title, description and default the
// referring node gives (they annotate the use, not the definition).
func withOwn(target, ref *node) *node {
	out := *target
	if ref.Title != "" {
		out.Title = ref.Title
	}
	if ref.Description != "" {
		out.Description = ref.Description
	}
	if ref.Default != nil {
		out.Default = ref.Default
	}
	return &out
}

// ChoiceText is choice i of an enum as the person reads it: a string as
// it is, anything else as its JSON.
func (f *Field) ChoiceText(i int) string {
	var s string
	if i < 0 || i >= len(f.Enum) {
		return ""
	}
	if json.Unmarshal(f.Enum[i], &s) == nil {
		return s
	}
	return string(f.Enum[i])
}
