package toolform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Value is what the person filled in for one field. A field left empty is
// left out of the arguments: Text "" (strings, numbers, JSON), Bool nil,
// Choice -1, an array without items, an object none of whose fields is
// filled; unless the field is required, when it is a Problem.
type Value struct {
	Field *Field
	// Text is a string's, number's or JSON field's text, as typed.
	Text string
	// Bool is a boolean's value; nil for none.
	Bool *bool
	// Choice is the index of an enum's choice in Field.Enum; -1 for none.
	Choice int
	// Items are an array's items.
	Items []*Value
	// Props are an object's fields, in the order of Field.Fields.
	Props []*Value
}

// New returns the value of f as the form first shows it: filled with the
// schema's defaults, and a required boolean false.
func New(f *Field) *Value {
	if f.Default != nil {
		if v, err := FromJSON(f, f.Default); err == nil {
			return v
		}
	}
	v := Blank(f)
	switch {
	case f.Kind == KindBoolean && f.Required:
		v.Bool = new(bool)
	case f.Kind == KindEnum && f.Required && len(f.Enum) == 1:
		v.Choice = 0
	case f.Kind == KindObject:
		for i, c := range f.Fields {
			v.Props[i] = New(c)
		}
	}
	return v
}

// Blank returns the value of f with nothing filled in.
func Blank(f *Field) *Value {
	v := &Value{Field: f, Choice: -1}
	for _, c := range f.Fields {
		v.Props = append(v.Props, Blank(c))
	}
	return v
}

// AddItem appends an item to an array's value, filled with the items'
// defaults, and returns it.
func (v *Value) AddItem() *Value {
	it := New(v.Field.Items)
	v.Items = append(v.Items, it)
	return it
}

// RemoveItem removes an array's item i.
func (v *Value) RemoveItem(i int) {
	if i >= 0 && i < len(v.Items) {
		v.Items = append(v.Items[:i], v.Items[i+1:]...)
	}
}

// Problem is what keeps a value from being sent: where, and what.
type Problem struct {
	// Path names the field: "entities[0].name"; "" for the arguments.
	Path string
	Text string
}

// String is the problem as the person reads it.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Text
	}
	return p.Path + ": " + p.Text
}

// Arguments returns the arguments the form holds, as a JSON object with
// the fields in the schema's order, and the problems that keep it from
// being sent (a required field left empty, a number that is not one).
func (v *Value) Arguments() (json.RawMessage, []Problem) {
	var e emitter
	var b bytes.Buffer
	if !e.value(&b, v, "", true) {
		b.WriteString("{}")
	}
	return b.Bytes(), e.problems
}

// emitter writes values and collects their problems.
type emitter struct{ problems []Problem }

func (e *emitter) problem(path, format string, args ...any) {
	e.problems = append(e.problems, Problem{Path: path, Text: fmt.Sprintf(format, args...)})
}

// value writes v and reports whether it is set; an unset value writes
// nothing. root is the arguments object, always set.
func (e *emitter) value(b *bytes.Buffer, v *Value, path string, root bool) bool {
	f := v.Field
	switch f.Kind {
	case KindObject:
		return e.object(b, v, path, root)
	case KindArray:
		if len(v.Items) == 0 && !f.Required {
			return false
		}
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if !e.value(b, it, fmt.Sprintf("%s[%d]", path, i), false) {
				b.WriteString("null")
			}
		}
		b.WriteByte(']')
		return true
	}
	raw, set := e.scalar(v, path)
	switch {
	case set && raw == nil: // a problem: the JSON stays whole, the problem says what is wrong
		b.WriteString("null")
	case set:
		b.Write(raw)
	case f.Required:
		e.problem(path, "required")
	}
	return set
}

// object writes an object's value: set if it is the root, required, or
// any of its fields is set; the problems of an unset object's fields do
// not count.
func (e *emitter) object(b *bytes.Buffer, v *Value, path string, root bool) bool {
	var inner bytes.Buffer
	sub := emitter{}
	n := 0
	for _, p := range v.Props {
		var one bytes.Buffer
		name := p.Field.Name
		if !sub.value(&one, p, join(path, name), false) {
			continue
		}
		if n > 0 {
			inner.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		inner.Write(key)
		inner.WriteByte(':')
		inner.Write(one.Bytes())
		n++
	}
	if n == 0 && !root && !v.Field.Required {
		return false
	}
	e.problems = append(e.problems, sub.problems...)
	b.WriteByte('{')
	b.Write(inner.Bytes())
	b.WriteByte('}')
	return true
}

// join names a property of the value at path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// scalar is a string's, number's, boolean's, enum's or JSON field's
// value as JSON, and whether it is set.
func (e *emitter) scalar(v *Value, path string) (json.RawMessage, bool) {
	f := v.Field
	switch f.Kind {
	case KindBoolean:
		if v.Bool == nil {
			return nil, false
		}
		return json.RawMessage(strconv.FormatBool(*v.Bool)), true
	case KindEnum:
		if v.Choice < 0 || v.Choice >= len(f.Enum) {
			return nil, false
		}
		return f.Enum[v.Choice], true
	}
	if v.Text == "" {
		return nil, false
	}
	switch f.Kind {
	case KindString:
		raw, _ := json.Marshal(v.Text)
		return raw, true
	case KindNumber, KindInteger:
		return e.number(v, path)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(v.Text)); err != nil {
		e.problem(path, "not valid JSON: %v", err)
		return nil, true
	}
	return buf.Bytes(), true
}

// number is a number's text as JSON, as written; an integer must be
// whole.
func (e *emitter) number(v *Value, path string) (json.RawMessage, bool) {
	s := strings.TrimSpace(v.Text)
	var n json.Number
	if err := json.Unmarshal([]byte(s), &n); err != nil || !json.Valid([]byte(s)) {
		e.problem(path, "%q is not a number", v.Text)
		return nil, true
	}
	if v.Field.Kind == KindInteger && !whole(n) {
		e.problem(path, "%q is not a whole number", v.Text)
		return nil, true
	}
	return json.RawMessage(s), true
}

// whole reports whether n is an integer (1, 1.0 and 1e3 are).
func whole(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	return err == nil && f == float64(int64(f))
}
