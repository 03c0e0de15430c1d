// Package toolcall holds what the host knows of a server's tools and of
// what their calls return, with no session in sight: a tool's definition
// (Tool, and Def, its x-mcp-header bindings), the rules that mirror a
// call's arguments into Mcp-Param-* headers (SEP-2243), a result's content
// entries in the host's terms (Content) and what of them reaches the
// model, and the check of a result's structuredContent against the tool's
// outputSchema. hostcore lists and calls the tools, through the consent
// gate, and converts go-sdk's types into these; the model loop, the lab
// and the screens read them. It imports no go-sdk package and does no I/O.
package toolcall

import (
	"encoding/json"
)

// Tool is one entry of tools/list.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments, as the
	// server sent it; the model is given it as is.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// ReadOnly is the server's readOnlyHint. The consent gate runs such a
	// tool without asking only where the person's policy says so (the
	// lab's default, --tools read-only); a conversation asks all the same.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Destructive is the server's destructiveHint for a tool that is not
	// read-only, true when absent (the protocol's default); Idempotent is
	// its idempotentHint.
	Destructive bool `json:"destructive,omitempty"`
	Idempotent  bool `json:"idempotent,omitempty"`
	// OpenWorld is the server's openWorldHint: the tool reaches beyond
	// the server's own data (the web, another service). True when absent,
	// the protocol's default.
	OpenWorld bool `json:"openWorld,omitempty"`
	// Unstated names the hints the server left out, whose values above
	// are the protocol's defaults: "readOnlyHint", "destructiveHint",
	// "idempotentHint", "openWorldHint".
	Unstated []string `json:"unstated,omitempty"`
	// OutputSchema is the JSON Schema of the tool's structuredContent, as
	// the server sent it, if it gave one (see CheckStructured).
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// Wire is what the host reads again of a listed tool from the
// tools/list page as it was sent: go-sdk decodes the schemas into maps,
// which lose the order of their properties, and the annotations into
// booleans, which cannot tell an absent hint from false.
type Wire struct {
	Name         string                     `json:"name"`
	InputSchema  json.RawMessage            `json:"inputSchema"`
	OutputSchema json.RawMessage            `json:"outputSchema"`
	Annotations  map[string]json.RawMessage `json:"annotations"`
}

// Apply puts what w says of a tool into t: its schemas as sent and the
// names of the hints its server left out.
func (w *Wire) Apply(t *Tool) {
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
