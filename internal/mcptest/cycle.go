package mcptest

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The cursor-cycle mode's cursors: the first page hands out CycleCursorA,
// page A hands out CycleCursorB, and page B hands out CycleCursorA again.
const (
	CycleCursorA = "cursor-a"
	CycleCursorB = "cursor-b"
)

// CycleURI returns the URI of the cursor-cycle mode's resource on page i
// (0 for the first page, 1 for A, 2 for B).
func CycleURI(i int) string { return fmt.Sprintf("test://cycle/resources/%d", i) }

// CycleTemplate returns the URI template on page i of the templates.
func CycleTemplate(i int) string { return fmt.Sprintf("test://cycle/t%d/{name}", i) }

// cycleServer is a go-sdk server whose resources/list and
// resources/templates/list never end: their cursors go a→b→a, one item a
// page. Any other cursor is -32602.
func cycleServer(o Options) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-cursor-cycle", Version: "1.0.0"}, &mcp.ServerOptions{
		Logger:       o.Logger,
		Capabilities: &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{}},
	})
	srv.AddReceivingMiddleware(cycleMiddleware)
	return srv
}

// cyclePage returns the page a cursor starts and the cursor it hands out.
func cyclePage(cursor string) (int, string, error) {
	switch cursor {
	case "":
		return 0, CycleCursorA, nil
	case CycleCursorA:
		return 1, CycleCursorB, nil
	case CycleCursorB:
		return 2, CycleCursorA, nil
	}
	return 0, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Invalid params: invalid cursor %q", cursor)}
}

func cycleMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListResourcesRequest:
			var cursor string
			if r.Params != nil {
				cursor = r.Params.Cursor
			}
			i, next, err := cyclePage(cursor)
			if err != nil {
				return nil, err
			}
			return &mcp.ListResourcesResult{NextCursor: next, Resources: []*mcp.Resource{{
				URI: CycleURI(i), Name: fmt.Sprintf("resource-%d", i), MIMEType: "text/plain",
			}}}, nil
		case *mcp.ListResourceTemplatesRequest:
			var cursor string
			if r.Params != nil {
				cursor = r.Params.Cursor
			}
			i, next, err := cyclePage(cursor)
			if err != nil {
				return nil, err
			}
			return &mcp.ListResourceTemplatesResult{NextCursor: next, ResourceTemplates: []*mcp.ResourceTemplate{{
				URITemplate: CycleTemplate(i), Name: fmt.Sprintf("template-%d", i), MIMEType: "text/plain",
			}}}, nil
		}
		return next(ctx, method, req)
	}
}
