package hostcore

import (
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/wire"
)

// go-sdk decodes a tool's schemas into maps, which lose the order of their
// properties (a form would list "entityType" before "name"), and its
// annotations into booleans, which cannot tell an absent readOnlyHint from
// false. The host reads both again from the tools/list page as the tap
// recorded it; when the tap has let the page go or cut it, the tools keep
// what go-sdk decoded.

// toolsAsSent gives tools, one page of tools/list asked with cursor, their
// schemas as sent and the names of the hints their server left out.
func (c *Conn) toolsAsSent(cursor string, tools []toolcall.Tool) {
	raw, ok := c.tap.Find("tools/list", cursor)
	if !ok || raw.Response == nil || raw.Truncated {
		return
	}
	var env struct {
		Result struct {
			Tools []toolcall.Wire `json:"tools"`
		} `json:"result"`
	}
	if wire.Decode(raw.Response, &env) != nil {
		return
	}
	byName := make(map[string]*toolcall.Wire, len(env.Result.Tools))
	for i := range env.Result.Tools {
		byName[env.Result.Tools[i].Name] = &env.Result.Tools[i]
	}
	for i := range tools {
		if w := byName[tools[i].Name]; w != nil {
			w.Apply(&tools[i])
		}
	}
}
