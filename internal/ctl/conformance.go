package ctl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

// The MCP conformance suite runs scripts/conformance-client.sh once per
// scenario, which drives attachectl as a person would, one command at a
// time: info (connect, signing in when the server asks), tools (list),
// call (each call the scenario asks for, with its arguments), resources
// and read. This hidden command is the one part that is no person's: it
// says which calls a scenario asks for, from the scenario's name and
// context (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT) and the
// listing the tools command printed. It calls nothing itself.

// conformanceCall is one call a scenario asks its client to make.
type conformanceCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

func (a *app) conformanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "conformance-calls < tools.json",
		Short:  "The calls an MCP conformance scenario asks for, one a line: NAME TAB ARGUMENTS (a test client's part)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var tools []toolcall.Tool
			if err := json.NewDecoder(a.stdin).Decode(&tools); err != nil && err != io.EOF {
				return usageError("conformance-calls reads the JSON listing of attachectl tools --json on stdin: " + err.Error())
			}
			calls, err := scenarioCalls(os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Getenv("MCP_CONFORMANCE_CONTEXT"), tools)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(a.stdout)
			for _, c := range calls {
				b, err := json.Marshal(c.Arguments)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s\t%s\n", c.Name, b)
			}
			return w.Flush()
		},
	}
}

// scenarioCalls are the calls a scenario asks for: the context's toolCalls
// when it gives them; for the scenario that checks a schema survives the
// client, its focal tool's schema sent back through the echo tool; for
// one that only lists, none; else every listed tool once, with arguments
// made from its schema (see exampleArguments).
func scenarioCalls(scenario, rawContext string, tools []toolcall.Tool) ([]conformanceCall, error) {
	var ctx struct {
		ToolCalls []conformanceCall `json:"toolCalls"`
	}
	if rawContext != "" {
		if err := json.Unmarshal([]byte(rawContext), &ctx); err != nil {
			return nil, usageError("MCP_CONFORMANCE_CONTEXT is not JSON: " + err.Error())
		}
	}
	if len(ctx.ToolCalls) > 0 {
		for i := range ctx.ToolCalls {
			if ctx.ToolCalls[i].Arguments == nil {
				ctx.ToolCalls[i].Arguments = map[string]any{}
			}
		}
		return ctx.ToolCalls, nil
	}
	switch scenario {
	case "json-schema-ref-no-deref":
		return nil, nil // the listing is the test: no $ref is fetched
	case "json-schema-2020-12-preservation":
		i := slices.IndexFunc(tools, func(t toolcall.Tool) bool { return t.Name == "json_schema_2020_12_tool" })
		if i < 0 {
			return nil, hostcore.NewError(fault.KindProtocol, "the server lists no json_schema_2020_12_tool")
		}
		return []conformanceCall{{Name: "json_schema_echo", Arguments: map[string]any{"schema": tools[i].InputSchema}}}, nil
	}
	calls := make([]conformanceCall, 0, len(tools))
	for _, t := range tools {
		calls = append(calls, conformanceCall{Name: t.Name, Arguments: exampleArguments(t.InputSchema)})
	}
	return calls, nil
}

// exampleArguments fills a schema's properties the way a person trying a
// tool would: each property's default, else its first choice, else a
// plain value of its type (1, true, "example", {} or []).
func exampleArguments(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Type    any   `json:"type"`
			Default any   `json:"default"`
			Enum    []any `json:"enum"`
		} `json:"properties"`
	}
	out := map[string]any{}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, p := range s.Properties {
		switch typ, _ := p.Type.(string); {
		case p.Default != nil:
			out[name] = p.Default
		case len(p.Enum) > 0:
			out[name] = p.Enum[0]
		case typ == "number", typ == "integer":
			out[name] = 1
		case typ == "boolean":
			out[name] = true
		case typ == "object":
			out[name] = map[string]any{}
		case typ == "array":
			out[name] = []any{}
		case typ == "string", strings.TrimSpace(typ) == "":
			out[name] = "example"
		}
	}
	return out
}
