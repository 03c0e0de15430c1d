package resend

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SendPlain sends the requests whose answers the host keeps nothing of.
func SendPlain(ctx context.Context, cs *mcp.ClientSession, method string, p Params) error {
	switch method {
	case "ping":
		return cs.Ping(ctx, nil)
	case "prompts/get":
		var args map[string]string
		json.Unmarshal(OrEmpty(p.Arguments), &args)
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		return err
	case "completion/complete":
		params := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: p.Ref.Type, URI: p.Ref.URI, Name: p.Ref.Name},
			Argument: mcp.CompleteParamsArgument{Name: p.Argument.Name, Value: p.Argument.Value}}
		if p.Context != nil {
			params.Context = &mcp.CompleteContext{Arguments: p.Context.Arguments}
		}
		_, err := cs.Complete(ctx, params)
		return err
	case "logging/setLevel":
		return cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(p.Level)})
	}
	return usage("%s is not a request the console sends", method)
}

// Bytes counts bytes in words: "1 byte", "2 bytes".
func Bytes(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// WireMethods are the methods a request goes on the wire as: a
// subscription is subscriptions/listen at 2026-07-28.
func WireMethods(method string) []string {
	if method == "resources/subscribe" || method == "subscriptions/listen" {
		return []string{"resources/subscribe", "subscriptions/listen"}
	}
	return []string{method}
}
