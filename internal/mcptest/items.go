package mcptest

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// items is the catalog behind ItemsTemplate. Fruit and books share names
// starting with "a", so a completion of name that ignores the chosen
// category is visibly wrong.
var items = map[string][]string{
	"books": {"almanac", "atlas", "dune", "emma"},
	"fruit": {"apple", "apricot", "banana", "cherry"},
	"tools": {"hammer", "handsaw", "spanner"},
}

// Items returns the catalog behind ItemsTemplate: category to names, each
// list sorted. The map is the caller's.
func Items() map[string][]string {
	c := make(map[string][]string, len(items))
	for k, v := range items {
		c[k] = slices.Clone(v)
	}
	return c
}

// containsItem reports whether name is an item of category.
func containsItem(category, name string) bool {
	return slices.Contains(items[category], name)
}

// completeItems completes the variables of ItemsTemplate. A category
// completes from the categories; a name from the names of the category in
// context.arguments["category"], or from every name when none is chosen.
func completeItems(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	values := []string{}
	p := req.Params
	if p.Ref != nil && p.Ref.Type == "ref/resource" && p.Ref.URI == ItemsTemplate {
		for _, v := range itemCandidates(p.Argument.Name, p.Context) {
			if strings.HasPrefix(v, p.Argument.Value) {
				values = append(values, v)
			}
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}

// itemCandidates lists the values of one variable of ItemsTemplate, sorted.
func itemCandidates(variable string, ctx *mcp.CompleteContext) []string {
	switch variable {
	case "category":
		return slices.Sorted(maps.Keys(items))
	case "name":
		if ctx != nil && ctx.Arguments["category"] != "" {
			return items[ctx.Arguments["category"]]
		}
		var all []string
		for _, names := range items {
			all = append(all, names...)
		}
		slices.Sort(all)
		return all
	}
	return nil
}
