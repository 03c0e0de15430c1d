package lab

import (
	"encoding/json"
	"strings"
)

// Carried returns the resources whose data a tool result carries: every
// JSON object in the result (at any depth) that names a resource by "uri"
// and holds its data in a non-empty "content" string. That is what
// threengram's get_memories returns for each memory it finds; an excerpt
// (search, briefing) is not the data, and an id in notFound is not either.
// A result that is not JSON carries nothing.
func Carried(result []byte) []string {
	var v any
	if err := json.Unmarshal(result, &v); err != nil {
		return nil
	}
	var out []string
	walk(v, func(m map[string]any) {
		uri, _ := m["uri"].(string)
		content, _ := m["content"].(string)
		if uri != "" && strings.TrimSpace(content) != "" {
			out = append(out, uri)
		}
	})
	return out
}

func walk(v any, f func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		f(v)
		for _, e := range v {
			walk(e, f)
		}
	case []any:
		for _, e := range v {
			walk(e, f)
		}
	}
}
