package mcptest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dropReadHints leaves ttlMs and cacheScope off the wire for reads of uri.
// go-sdk always writes both (an unset scope becomes "public"), but a
// 2026-07-28 server of another make may omit them, and a host must treat
// that as immediately stale and private.
func dropReadHints(uri string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			read, ok := res.(*mcp.ReadResourceResult)
			if err != nil || !ok || req.(*mcp.ReadResourceRequest).Params.URI != uri {
				return res, err
			}
			return &hintlessRead{read}, nil
		}
	}
}

// hintlessRead is a read result marshalled without its cache hints. It
// embeds the go-sdk result so that the SDK's post-processing (resultType,
// serverInfo in _meta) still reaches it.
type hintlessRead struct {
	*mcp.ReadResourceResult
}

// MarshalJSON writes the embedded result without ttlMs and cacheScope.
func (r *hintlessRead) MarshalJSON() ([]byte, error) {
	b, err := r.ReadResourceResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("dropping cache hints: %w", err)
	}
	delete(fields, "ttlMs")
	delete(fields, "cacheScope")
	return json.Marshal(fields)
}
