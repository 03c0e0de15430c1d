package hostcore

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/listmemo"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/wire"
)

// The host knows each tool's definition before it calls it (SEP-2243,
// toolheaders.go). A listing records the definitions of the connection
// (toolcall.Defs) and stores its pages in the cache under their hints, in the
// partition of the authorization context that fetched them: a later
// command, a new process, finds them there without listing again. A call
// looks the tool up in this order: the connection's last listing, a fresh
// cached listing, a listing made now (only where the headers go on the
// wire: Streamable HTTP at 2026-07-28).

const methodListTools = "tools/list"

// toolPage is a tools/list page as the cache stores it: each tool as go-sdk
// decoded it, before go-sdk's filter.
type toolPage struct {
	Tools []json.RawMessage `json:"tools"`
	Next  string            `json:"next,omitempty"`
}

// Tools lists every tool of every page. A tool whose x-mcp-header
// annotations are invalid is left out (and logged), as go-sdk leaves it
// out. A server that repeats a cursor, or lists more than
// DefaultMaxListItems tools, gets an error rather than being asked for
// ever. Every page is stored in the cache under its hints.
func (c *Conn) Tools(ctx context.Context) ([]toolcall.Tool, error) {
	partition, err := c.Partition(ctx)
	if err != nil {
		return nil, err
	}
	kept, ok, ticket, err := c.lists.Take(ctx, methodListTools, partition, c.sessionNow)
	if err != nil {
		return nil, err
	} else if ok {
		return slices.Clone(kept.([]toolcall.Tool)), nil
	}
	tools, err := c.listTools(ctx, partition)
	if err != nil || len(tools) > listmemo.MaxItems {
		ticket.Drop()
		return tools, err
	}
	ticket.Keep(slices.Clone(tools), c.sessionNow())
	return tools, nil
}

// listTools asks the server for every page of tools (see Tools).
func (c *Conn) listTools(ctx context.Context, partition string) ([]toolcall.Tool, error) {
	var out []toolcall.Tool
	defs := map[string]toolcall.Def{}
	seen := map[string]bool{}
	cursor := ""
	for {
		page, tools, err := c.toolsPage(ctx, cursor, partition)
		if err != nil {
			return nil, err
		}
		start := len(out)
		for i, t := range tools {
			name, def := toolcall.Define(page.Tools[i])
			defs[name] = def
			if def.Invalid != nil {
				c.host.log.Info("leaving out a tool whose x-mcp-header annotation is invalid", "server", c.Server.Name, "tool", name, "why", def.Invalid)
				continue
			}
			out = append(out, toolOf(t))
		}
		c.toolsAsSent(cursor, out[start:])
		switch cursor = page.Next; {
		case cursor == "":
			c.defs.Set(defs)
			return out, nil
		case seen[cursor]:
			return nil, protocolError("", "%s: tools/list repeated the cursor %q", c.Server.Name, clip(cursor))
		case len(defs) > DefaultMaxListItems:
			return nil, newError(fault.KindServerFault, nil, "%s lists more than %d tools; the host stopped there", c.Server.Name, DefaultMaxListItems)
		}
		seen[cursor] = true
	}
}

// toolsPage asks the server for one page of tools and stores it.
func (c *Conn) toolsPage(ctx context.Context, cursor, partition string) (toolPage, []*mcp.Tool, error) {
	h := c.host
	key := CacheKey{Server: c.identity, Method: methodListTools, Param: cursor}
	gen := h.generation(key)
	var hints CacheHints
	res, err := call(ctx, c, "listing the tools of "+c.Server.Name, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.ListToolsResult, error) {
		res, hs, err := boxed(ctx, func(ctx context.Context) (*mcp.ListToolsResult, error) {
			return cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		})
		hints = hs
		return res, err
	})
	if err != nil {
		return toolPage{}, nil, err
	}
	page := toolPage{Next: res.NextCursor}
	var tools []*mcp.Tool
	for _, t := range res.Tools {
		if t == nil {
			continue
		}
		raw, err := json.Marshal(t)
		if err != nil {
			continue
		}
		page.Tools, tools = append(page.Tools, raw), append(tools, t)
	}
	if h.opts.Cache != nil && hints.TTL > 0 {
		if value, err := json.Marshal(page); err == nil {
			e := CacheEntry{Key: key, Scope: cacheScope(hints.Scope), Value: value, StoredAt: h.opts.Now.now(), TTL: min(hints.TTL, MaxTTL)}
			if e.Scope == ScopePrivate {
				e.Partition, e.AccountName = partition, c.Account.Name
			}
			h.putIfCurrent(ctx, e, gen)
		}
	}
	return page, tools, nil
}

// cachedToolDef looks name up in a fresh cached listing of this
// authorization context: every page fresh, from the first to the last.
func (c *Conn) cachedToolDef(ctx context.Context, name string) (toolcall.Def, bool) {
	h := c.host
	if h.opts.Cache == nil {
		return toolcall.Def{}, false
	}
	partition, err := c.Partition(ctx)
	if err != nil {
		return toolcall.Def{}, false
	}
	cursor, now := "", h.opts.Now.now()
	for range maxPages {
		e, ok, err := h.opts.Cache.Get(ctx, CacheKey{Server: c.identity, Method: methodListTools, Param: cursor}, partition)
		var page toolPage
		if err != nil || !ok || !fresh(e, now) || wire.Decode(e.Value, &page) != nil {
			return toolcall.Def{}, false
		}
		for _, raw := range page.Tools {
			if n, def := toolcall.Define(raw); n == name {
				return def, true
			}
		}
		if cursor = page.Next; cursor == "" {
			return toolcall.Def{}, false
		}
	}
	return toolcall.Def{}, false
}

// headersOnWire reports whether this connection's tool calls carry
// SEP-2243 headers: Streamable HTTP at 2026-07-28 or later.
func (c *Conn) headersOnWire() bool {
	info := c.Info()
	return c.Server.IsHTTP() && info.Handshake.Transport == config.TransportStreamable && info.ProtocolVersion >= protocolVersionDiscover
}

// toolHeaders returns the Mcp-Param-* headers of a call of name with args,
// from the tool's definition (see above), or an error for a tool whose
// annotations are invalid.
func (c *Conn) toolHeaders(ctx context.Context, op, name string, args map[string]any) (map[string]string, error) {
	if _, err := c.session(ctx); err != nil { // the session says whether headers go on the wire
		return nil, err
	}
	def, found, listed := c.defs.Get(name)
	if !found {
		def, found = c.cachedToolDef(ctx, name)
	}
	if !found && !listed {
		if c.headersOnWire() {
			if _, err := c.Tools(ctx); err != nil {
				return nil, err
			}
			def, found, _ = c.defs.Get(name)
		}
	}
	if !found {
		return nil, nil // not listed: nothing is known to mirror
	}
	if def.Invalid != nil {
		return nil, protocolError("", "%s: the tool's x-mcp-header annotation is invalid (%v), so the host does not call it", op, def.Invalid)
	}
	if !c.headersOnWire() {
		return nil, nil
	}
	return toolcall.ParamHeaders(def.Bindings, args)
}
