package toolform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// FromJSON returns the value of f that data (JSON, as the person wrote it
// in the raw tab) fills in, so that the form shows it. A field data leaves
// out is empty, not its default: the form then gives back the same
// arguments. An error names the first part of data the form cannot hold
// (a value of another type, a property the schema does not list, a null),
// and the form is left as it was.
func FromJSON(f *Field, data json.RawMessage) (*Value, error) {
	v, err := fromJSON(f, bytes.TrimSpace(data), "")
	if err != nil {
		return nil, err
	}
	return v, nil
}

// notFit is FromJSON's error at path.
func notFit(path, format string, args ...any) error {
	where := "the arguments"
	if path != "" {
		where = path
	}
	return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
}

func fromJSON(f *Field, data []byte, path string) (*Value, error) {
	v := Blank(f)
	if !json.Valid(data) {
		return nil, notFit(path, "not valid JSON")
	}
	if string(data) == "null" {
		return nil, notFit(path, "null, which the form cannot hold")
	}
	switch f.Kind {
	case KindJSON:
		v.Text = string(data)
	case KindString:
		if err := json.Unmarshal(data, &v.Text); err != nil {
			return nil, notFit(path, "not a string")
		}
		if v.Text == "" {
			return nil, notFit(path, "an empty string, which the form cannot tell from no value")
		}
	case KindNumber, KindInteger:
		if data[0] != '-' && (data[0] < '0' || data[0] > '9') {
			return nil, notFit(path, "not a number")
		}
		if f.Kind == KindInteger && !whole(json.Number(data)) {
			return nil, notFit(path, "not a whole number")
		}
		v.Text = string(data)
	case KindBoolean:
		b, err := strconv.ParseBool(string(data))
		if err != nil || (string(data) != "true" && string(data) != "false") {
			return nil, notFit(path, "not true or false")
		}
		v.Bool = &b
	case KindEnum:
		v.Choice = choiceOf(f, data)
		if v.Choice < 0 {
			return nil, notFit(path, "%s is not one of the choices", clipped(data))
		}
	case KindArray:
		return arrayFromJSON(v, data, path)
	case KindObject:
		return objectFromJSON(v, data, path)
	}
	return v, nil
}

// arrayFromJSON fills v, an array, from data.
func arrayFromJSON(v *Value, data []byte, path string) (*Value, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, notFit(path, "not an array")
	}
	for i, raw := range items {
		it, err := fromJSON(v.Field.Items, bytes.TrimSpace(raw), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, it)
	}
	return v, nil
}

// objectFromJSON fills v, an object, from data.
func objectFromJSON(v *Value, data []byte, path string) (*Value, error) {
	var props map[string]json.RawMessage
	if data[0] != '{' || json.Unmarshal(data, &props) != nil {
		return nil, notFit(path, "not an object")
	}
	for name := range props {
		if indexOf(v.Field, name) < 0 {
			return nil, notFit(path, "the property %q, which the form does not have", name)
		}
	}
	for i, c := range v.Field.Fields {
		raw, ok := props[c.Name]
		if !ok {
			continue
		}
		p, err := fromJSON(c, bytes.TrimSpace(raw), join(path, c.Name))
		if err != nil {
			return nil, err
		}
		v.Props[i] = p
	}
	return v, nil
}

func indexOf(f *Field, name string) int {
	for i, c := range f.Fields {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// choiceOf is the index of the choice of f that data is, or -1.
func choiceOf(f *Field, data []byte) int {
	want, err := canonical(data)
	if err != nil {
		return -1
	}
	for i, c := range f.Enum {
		if got, err := canonical(c); err == nil && got == want {
			return i
		}
	}
	return -1
}

// canonical is JSON in one spelling (object keys sorted, no spaces).
func canonical(data []byte) (string, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func clipped(data []byte) string {
	if len(data) > 40 {
		return string(data[:40]) + "…"
	}
	return string(data)
}
