package toolform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// field makes the field of schema n at depth.
func (p *parser) field(n *node, depth int) *Field {
	r, err := p.resolve(n)
	if err != nil {
		return jsonField(n, err.Error())
	}
	if depth > MaxDepth {
		return jsonField(r, "nested deeper than the form goes")
	}
	r, nullable, why := nonNull(r)
	if why != "" {
		return jsonField(r, why)
	}
	f := &Field{Title: r.Title, Description: r.Description, Default: r.Default, Nullable: nullable}
	if len(r.Enum) > 0 || r.Const != nil {
		f.Kind, f.Enum = KindEnum, r.Enum
		if r.Const != nil {
			f.Enum = []json.RawMessage{r.Const}
		}
		return f
	}
	types := slices.DeleteFunc(r.types(), func(t string) bool { return t == "null" })
	if len(r.types()) > len(types) {
		f.Nullable = true
	}
	switch {
	case len(types) > 1:
		return jsonField(r, "a value of several types ("+strings.Join(types, ", ")+")")
	case len(types) == 0 && r.Properties.nodes != nil:
		types = []string{"object"}
	case len(types) == 0 && r.Items != nil:
		types = []string{"array"}
	case len(types) == 0:
		return jsonField(r, "the schema gives no type")
	}
	switch types[0] {
	case "string", "number", "integer", "boolean":
		f.Kind, f.Hint = Kind(types[0]), hintOf(r)
	case "array":
		p.array(f, r, depth)
	case "object":
		p.object(f, r, depth)
	default:
		return jsonField(r, "a type the form does not know: "+types[0])
	}
	return f
}

// nonNull returns the one shape n allows besides null, when n is an anyOf
// or oneOf of it and {"type": "null"}; why says why a form cannot hold n
// (several shapes, a combination).
func nonNull(n *node) (out *node, nullable bool, why string) {
	if len(n.AllOf) > 1 {
		return n, false, "a combination of schemas (allOf)"
	}
	if len(n.AllOf) == 1 && len(n.types()) == 0 {
		return withOwn(n.AllOf[0], n), false, ""
	}
	branches := n.AnyOf
	if len(branches) == 0 {
		branches = n.OneOf
	}
	if len(branches) == 0 {
		return n, false, ""
	}
	var rest []*node
	for _, b := range branches {
		if t := b.types(); len(t) == 1 && t[0] == "null" {
			nullable = true
			continue
		}
		rest = append(rest, b)
	}
	if len(rest) != 1 {
		return n, nullable, "one of several shapes"
	}
	return withOwn(rest[0], n), nullable, ""
}

// array fills f, an array, from n.
func (p *parser) array(f *Field, n *node, depth int) {
	f.Kind, f.Hint = KindArray, hintOf(n)
	if len(n.PrefixItems) > 0 {
		*f = *jsonField(n, "a tuple (prefixItems)")
		return
	}
	item := &node{}
	if len(n.Items) > 0 && json.Unmarshal(n.Items, item) != nil {
		item = &node{} // "items": true, or a list (draft 04's tuple)
	}
	f.Items = p.field(item, depth+1)
	f.Items.Required = true // an item the person added is sent
}

// object fills f, an object, from n.
func (p *parser) object(f *Field, n *node, depth int) {
	f.Kind = KindObject
	if n.Properties.nodes == nil && !closed(n.AddProps) {
		*f = *jsonField(n, "an object of any keys")
		return
	}
	for _, name := range n.Properties.names {
		c := p.field(n.Properties.nodes[name], depth+1)
		c.Name, c.Required = name, slices.Contains(n.Required, name)
		f.Fields = append(f.Fields, c)
	}
}

// closed reports whether additionalProperties allows no other key.
func closed(add json.RawMessage) bool {
	s := strings.TrimSpace(string(add))
	return s == "false" || strings.HasPrefix(s, `{"not"`) && strings.Contains(s, "{}")
}

// hintOf states n's constraints in words.
func hintOf(n *node) string {
	var parts []string
	if n.Format != "" {
		parts = append(parts, "format "+n.Format)
	}
	if r := rangeWords(numWords(n.Minimum), numWords(n.Maximum), ""); r != "" {
		parts = append(parts, r)
	}
	if r := rangeWords(intWords(n.MinLength), intWords(n.MaxLength), " characters"); r != "" {
		parts = append(parts, r)
	}
	if r := rangeWords(intWords(n.MinItems), intWords(n.MaxItems), " items"); r != "" {
		parts = append(parts, r)
	}
	if n.Pattern != "" {
		parts = append(parts, "matching "+n.Pattern)
	}
	return strings.Join(parts, ", ")
}

func numWords(v *json.Number) string {
	if v == nil {
		return ""
	}
	return v.String()
}

func intWords(v *int) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(*v)
}

// rangeWords says a range: "1 to 10", "at least 1", "at most 10".
func rangeWords(lo, hi, unit string) string {
	switch {
	case lo != "" && hi != "":
		return lo + " to " + hi + unit
	case lo != "":
		return "at least " + lo + unit
	case hi != "":
		return "at most " + hi + unit
	}
	return ""
}
