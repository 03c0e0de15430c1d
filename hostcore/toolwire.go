package hostcore

import (
	"encoding/json"

	"github.com/attache/attache/hostcore/wire"
)

// go-sdk decodes a tool's schemas into maps, which lose the order of their
// properties (a form would list "entityType" before "name"), and its
// annotations into booleans, which cannot tell an absent readOnlyHint from
// false. The host reads both again from the tools/list page as the tap
// recorded it; when the tap has let the page go or cut it, the tools keep
// what go-sdk decoded.

// wireTool is what the host reads again of a listed tool.
type wireTool struct {
	Name         string                     `json:"name"`
	InputSchema  json.RawMessage            `json:"inputSchema"`
	OutputSchema json.RawMessage            `json:"outputSchema"`
	Annotations  map[string]json.RawMessage `json:"annotations"`
}

// toolsAsSent gives tools, one page of tools/list asked with cursor, their
// schemas as sent and the names of the hints their server left out.
func (c *Conn) toolsAsSent(cursor string, tools []Tool) {
	raw, ok := c.tap.Find("tools/list", cursor)
	if !ok || raw.Response == nil || raw.Truncated {
		return
	}
	var env struct {
		Result struct {
			Tools []wireTool `json:"tools"`
		} `json:"result"`
	}
	if wire.Decode(raw.Response, &env) != nil {
		return
	}
	byName := make(map[string]*wireTool, len(env.Result.Tools))
	for i := range env.Result.Tools {
		byName[env.Result.Tools[i].Name] = &env.Result.Tools[i]
	}
	for i := range tools {
		if w := byName[tools[i].Name]; w != nil {
			w.apply(&tools[i])
		}
	}
}

// apply puts what w says of a tool into t.
func (w *wireTool) apply(t *Tool) {
	if len(w.InputSchema) > 0 && string(w.InputSchema) != "null" {
		t.InputSchema = w.InputSchema
	}
	if len(w.OutputSchema) > 0 && string(w.OutputSchema) != "null" {
		t.OutputSchema = w.OutputSchema
	}
	t.Unstated = nil
	for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		if v, ok := w.Annotations[hint]; !ok || string(v) == "null" {
			t.Unstated = append(t.Unstated, hint)
		}
	}
}
