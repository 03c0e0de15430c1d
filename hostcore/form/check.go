package form

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Check returns v as the field's JSON value, or why it does not fit: the
// type, an enum's choices, the bounds and the format. A number may come as
// any Go number or a json.Number; an integer is returned as int64, a
// number as float64, a multi-select as []string.
func (f Field) Check(v any) (any, error) {
	switch f.Type {
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%s must be true or false", f.Label())
		}
		return b, nil
	case "number", "integer":
		return f.checkNumber(v)
	case "array":
		return f.checkChoices(v)
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("%s must be text", f.Label())
	}
	return s, f.checkString(s)
}

func (f Field) checkNumber(v any) (any, error) {
	var x float64
	switch n := v.(type) {
	case float64:
		x = n
	case float32:
		x = float64(n)
	case int:
		x = float64(n)
	case int64:
		x = float64(n)
	case json.Number:
		y, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("%s must be a number", f.Label())
		}
		x = y
	default:
		return nil, fmt.Errorf("%s must be a number", f.Label())
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, fmt.Errorf("%s must be a number", f.Label())
	}
	if f.Minimum != nil && x < *f.Minimum || f.Maximum != nil && x > *f.Maximum {
		return nil, fmt.Errorf("%s must be %s", f.Label(), f.bounds())
	}
	if f.Type == "integer" {
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return nil, fmt.Errorf("%s must be a whole number", f.Label())
		}
		return int64(x), nil
	}
	return x, nil
}

// bounds says a number field's range ("from 1 to 10").
func (f Field) bounds() string {
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'g', -1, 64) }
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		return "from " + num(f.Minimum) + " to " + num(f.Maximum)
	case f.Minimum != nil:
		return "at least " + num(f.Minimum)
	case f.Maximum != nil:
		return "at most " + num(f.Maximum)
	}
	return "a number"
}

func (f Field) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	switch {
	case len(f.Options) > 0 && !slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == s }):
		return fmt.Errorf("%s must be one of %s", f.Label(), f.choices())
	case f.MinLength != nil && n < *f.MinLength:
		return fmt.Errorf("%s must be at least %d characters", f.Label(), *f.MinLength)
	case f.MaxLength != nil && n > *f.MaxLength:
		return fmt.Errorf("%s must be at most %d characters", f.Label(), *f.MaxLength)
	}
	if s == "" {
		return nil
	}
	var err error
	switch f.Format {
	case "email":
		_, err = mail.ParseAddress(s)
	case "uri":
		var u *url.URL
		if u, err = url.Parse(s); err == nil && u.Scheme == "" {
			err = errors.New("no scheme")
		}
	case "date":
		_, err = time.Parse(time.DateOnly, s)
	case "date-time":
		_, err = time.Parse(time.RFC3339, s)
	}
	if err != nil {
		return fmt.Errorf("%s must be a%s %s", f.Label(), article(f.Format), f.Format)
	}
	return nil
}

func article(format string) string {
	if format == "email" {
		return "n"
	}
	return ""
}

func (f Field) checkChoices(v any) (any, error) {
	var picked []string
	switch xs := v.(type) {
	case []string:
		picked = xs
	case []any:
		for _, x := range xs {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s must be a list of choices", f.Label())
			}
			picked = append(picked, s)
		}
	default:
		return nil, fmt.Errorf("%s must be a list of choices", f.Label())
	}
	for _, s := range picked {
		if !slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == s }) {
			return nil, fmt.Errorf("%s: %q is not one of %s", f.Label(), s, f.choices())
		}
	}
	if f.MinItems != nil && len(picked) < *f.MinItems || f.MaxItems != nil && len(picked) > *f.MaxItems {
		return nil, fmt.Errorf("%s: pick between %s and %s", f.Label(), orInf(f.MinItems, "0"), orInf(f.MaxItems, "all"))
	}
	if picked == nil {
		picked = []string{}
	}
	return picked, nil
}

func orInf(p *int, w string) string {
	if p == nil {
		return w
	}
	return strconv.Itoa(*p)
}

// choices lists an enum's values for a message.
func (f Field) choices() string {
	vs := make([]string, len(f.Options))
	for i, o := range f.Options {
		vs[i] = strconv.Quote(o.Value)
	}
	return strings.Join(vs, ", ")
}

// Parse reads a value typed as text into the field's JSON value: a number,
// true/false (yes/no), a choice by its value or its 1-based number, a
// multi-select as choices separated by commas.
func (f Field) Parse(text string) (any, error) {
	text = strings.TrimSpace(text)
	switch f.Type {
	case "boolean":
		switch strings.ToLower(text) {
		case "true", "yes", "y":
			return true, nil
		case "false", "no", "n":
			return false, nil
		}
		return nil, fmt.Errorf("%s: answer yes or no", f.Label())
	case "number", "integer":
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("%s must be a number", f.Label())
		}
		return f.Check(x)
	case "array":
		var picked []string
		for _, part := range strings.Split(text, ",") {
			if part = strings.TrimSpace(part); part != "" {
				picked = append(picked, f.optionValue(part))
			}
		}
		return f.Check(picked)
	}
	if len(f.Options) > 0 {
		return f.Check(f.optionValue(text))
	}
	return f.Check(text)
}

// optionValue is the value a typed choice names: its number in the list,
// else the text itself.
func (f Field) optionValue(s string) string {
	if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= len(f.Options) {
		return f.Options[i-1].Value
	}
	return s
}

// CompleteAnswer checks an accepted answer against the fields and fills in
// the default of each field it leaves out (SEP-1034: the client applies
// defaults). A required field without a value or a default is an error;
// keys that are no field are dropped.
func CompleteAnswer(fields []Field, content map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		v, ok := content[f.Name]
		if !ok || v == nil {
			if f.Default == nil {
				if f.Required {
					return nil, fmt.Errorf("%s is required", f.Label())
				}
				continue
			}
			v = f.Default
		}
		checked, err := f.Check(v)
		if err != nil {
			return nil, err
		}
		out[f.Name] = checked
	}
	return out, nil
}

// Defaults returns every field's default, by name: the answer of a person
// who accepts the form as it was offered.
func Defaults(fields []Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		if f.Default != nil {
			out[f.Name] = f.Default
		}
	}
	return out
}

// FormatValue writes a field's value as a person types it.
func (f Field) FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case []string:
		return strings.Join(x, ", ")
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}
