package toolcall

import (
	"encoding/json"
	"sync"
)

// Def is what the host knows of one listed tool.
type Def struct {
	// Bindings are its x-mcp-header annotations.
	Bindings []Binding
	// Invalid is why the tool's x-mcp-header annotations break SEP-2243:
	// such a tool is not offered and never called.
	Invalid error
}

// Defs are a connection's tool definitions from its last whole
// listing. It is safe for concurrent use.
type Defs struct {
	mu     sync.Mutex
	listed bool
	defs   map[string]Def
}

// Set keeps the definitions of a whole listing.
func (d *Defs) Set(defs map[string]Def) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.listed, d.defs = true, defs
}

// Get returns the definition of the tool name, whether that tool was
// listed, and whether a whole listing was kept.
func (d *Defs) Get(name string) (Def, bool, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	def, ok := d.defs[name]
	return def, ok, d.listed
}

// Define reads a listed tool's definition, from the tool as sent; it
// returns the tool's name.
func Define(raw json.RawMessage) (string, Def) {
	var t struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if json.Unmarshal(raw, &t) != nil {
		return "", Def{}
	}
	b, err := Bindings(t.InputSchema)
	return t.Name, Def{Bindings: b, Invalid: err}
}
