package threengram

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One resolver behind two front doors (seed 002, chapter 6): a memory is
// read as the resource threengram://memory/{id} or fetched by the tool
// get_memories, and both go through the same store and the same tenant
// check. A client that surfaces resources to its model (a host that
// attaches them) does not need the fetch tool: offering it anyway grows
// every request by its listing and invites the model to fetch what is
// already attached. FetchToolGate hides the tool from such clients,
// decided from what they said in initialize.

// FetchTool is the name of the tool the gate hides.
const FetchTool = "get_memories"

// SurfacesResourcesCapability is the experimental client capability (in
// capabilities.experimental or capabilities.extensions) by which a client
// says it puts resources before its model.
const SurfacesResourcesCapability = "io.attache/surfacesResources"

// FetchToolGate says which clients surface resources. The zero value is
// off: it hides the tool from no one.
//
// The gate reads the session's initialize parameters, so it works where
// the server keeps sessions (stdio, stateful HTTP); the stateless HTTP
// handler (NewHTTPHandler) sees no initialize and offers the tool to all.
type FetchToolGate struct {
	// On turns the gate on.
	On bool
	// Clients are clientInfo names (matched without regard to case) of
	// hosts known to surface resources, such as "attache".
	Clients []string
}

// ParseFetchToolGate reads a command line's comma-separated client names
// ("attache,claude-ai"); "" is off.
func ParseFetchToolGate(s string) FetchToolGate {
	var g FetchToolGate
	for _, c := range strings.Split(s, ",") {
		if c = strings.TrimSpace(c); c != "" {
			g.On, g.Clients = true, append(g.Clients, c)
		}
	}
	return g
}

// Hides reports whether a client that initialized with p gets no fetch
// tool: the gate is on, and the client's clientInfo name is one of g.Clients, or it declares
// SurfacesResourcesCapability.
func (g FetchToolGate) Hides(p *mcp.InitializeParams) bool {
	if !g.On || p == nil {
		return false
	}
	if p.ClientInfo != nil && slices.ContainsFunc(g.Clients, func(c string) bool { return strings.EqualFold(c, p.ClientInfo.Name) }) {
		return true
	}
	if caps := p.Capabilities; caps != nil {
		if _, ok := caps.Experimental[SurfacesResourcesCapability]; ok {
			return true
		}
		if _, ok := caps.Extensions[SurfacesResourcesCapability]; ok {
			return true
		}
	}
	return false
}

// middleware leaves the fetch tool out of tools/list for the clients the
// gate hides it from, and answers their calls of it as an unknown tool.
func (g FetchToolGate) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil || !g.Hides(ss.InitializeParams()) {
			return next(ctx, method, req)
		}
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil && call.Params.Name == FetchTool {
			return &mcp.CallToolResult{IsError: true,
				Content: []mcp.Content{&mcp.TextContent{Text: "unknown tool \"" + FetchTool + "\": read threengram://memory/{id} instead"}}}, nil
		}
		res, err := next(ctx, method, req)
		if list, ok := res.(*mcp.ListToolsResult); ok && err == nil {
			list.Tools = slices.DeleteFunc(slices.Clone(list.Tools), func(t *mcp.Tool) bool { return t.Name == FetchTool })
		}
		return res, err
	}
}
