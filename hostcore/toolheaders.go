package hostcore

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SEP-2243 (2026-07-28, Streamable HTTP): a tool's input schema may mark
// arguments with "x-mcp-header": NAME, and a client MUST send each such
// argument's value in an Mcp-Param-NAME header of every tools/call, so
// that gateways can route on it without reading the body. A client must
// know the tool's definition to do so: the host takes it from this
// connection's last tools/list, else from a cached listing of the same
// authorization context, else lists the tools first (toolcall.go). A tool
// whose annotations are invalid is left out of listings and never called,
// as go-sdk does.

// paramHeaderPrefix starts every header mirrored from an argument.
const paramHeaderPrefix = "Mcp-Param-"

// headerBinding ties an argument (a path of property names, for nested
// objects) to the header that carries it.
type headerBinding struct {
	path   []string
	header string
}

// headerProperty is what the host reads of a schema property.
type headerProperty struct {
	Type       json.RawMessage           `json:"type"`
	Header     json.RawMessage           `json:"x-mcp-header"`
	Properties map[string]headerProperty `json:"properties"`
}

// headerBindings reads and checks a tool's x-mcp-header annotations, at
// any depth: each on a string, integer or boolean property, a non-empty
// HTTP token, unique without regard to case. An error names the first
// property that breaks a rule.
func headerBindings(schema json.RawMessage) ([]headerBinding, error) {
	if len(schema) == 0 || !strings.Contains(string(schema), "x-mcp-header") {
		return nil, nil
	}
	var root headerProperty
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil // not an object: nothing the host can mirror
	}
	var out []headerBinding
	seen := map[string]string{}
	err := collectBindings(root.Properties, nil, seen, &out)
	return out, err
}

func collectBindings(props map[string]headerProperty, prefix []string, seen map[string]string, out *[]headerBinding) error {
	for _, name := range slices.Sorted(mapKeys(props)) {
		p := props[name]
		path := append(slices.Clone(prefix), name)
		where := strings.Join(path, ".")
		if p.Header != nil {
			var header, typ string
			if json.Unmarshal(p.Header, &header) != nil || header == "" {
				return fmt.Errorf("property %q: x-mcp-header must be a non-empty string", where)
			}
			if json.Unmarshal(p.Type, &typ); typ != "string" && typ != "integer" && typ != "boolean" {
				return fmt.Errorf("property %q: x-mcp-header is only for string, integer and boolean properties, not %s", where, orWord(string(p.Type), "an untyped one"))
			}
			if i := strings.IndexFunc(header, func(r rune) bool { return !isTokenChar(r) }); i >= 0 {
				return fmt.Errorf("property %q: x-mcp-header %q has %q, which a header name may not", where, header, header[i:i+1])
			}
			if other, dup := seen[strings.ToLower(header)]; dup {
				return fmt.Errorf("property %q: x-mcp-header %q is also %q's", where, header, other)
			}
			seen[strings.ToLower(header)] = where
			*out = append(*out, headerBinding{path: path, header: header})
		}
		if err := collectBindings(p.Properties, path, seen, out); err != nil {
			return err
		}
	}
	return nil
}

// mapKeys yields a map's keys (maps.Keys, for any map of string keys).
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// isTokenChar reports whether r may be in an HTTP field name (RFC 9110 tchar).
func isTokenChar(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// paramHeaders returns the Mcp-Param-* headers for a call with args: one
// per annotated argument that is present and not null. A string goes as
// it is unless it needs Base64 (see headerValue); a boolean as true or
// false; an integer in decimal. A value of another kind (an object, a
// fraction) gets no header, as go-sdk sends none.
func paramHeaders(bindings []headerBinding, args map[string]any) (map[string]string, error) {
	if len(bindings) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, bd := range bindings {
		v, ok := lookupArg(raw, bd.path)
		if !ok {
			continue
		}
		if s, ok := headerValueOf(v); ok {
			out[paramHeaderPrefix+bd.header] = s
		}
	}
	return out, nil
}

// lookupArg finds the value at path in the arguments.
func lookupArg(args map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	cur, ok := args[path[0]]
	for _, p := range path[1:] {
		if !ok {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return nil, false
		}
		cur, ok = obj[p]
	}
	return cur, ok && string(cur) != "null"
}

// maxSafeInteger is the largest integer a double holds exactly.
const maxSafeInteger = 1<<53 - 1

// headerValueOf encodes one argument's JSON value for its header.
func headerValueOf(raw json.RawMessage) (string, bool) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return paramHeaderValue(x), true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		f, err := x.Float64()
		if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			return "", false
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}

// paramHeaderValue is s as a header value: as it is when it is printable ASCII
// without white space at either end, else =?base64?...?= (SEP-2243's value
// encoding), as is a plain value that looks encoded already.
func paramHeaderValue(s string) string {
	plain := s == "" || s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t'
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=")) {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// paramHeadersKey carries a call's Mcp-Param-* headers to the HTTP round
// tripper, which sets them on the request of that call only.
type paramHeadersKey struct{}

func withParamHeaders(ctx context.Context, h map[string]string) context.Context {
	if len(h) == 0 {
		return ctx
	}
	return context.WithValue(ctx, paramHeadersKey{}, h)
}

func paramHeadersOf(ctx context.Context) map[string]string {
	h, _ := ctx.Value(paramHeadersKey{}).(map[string]string)
	return h
}
