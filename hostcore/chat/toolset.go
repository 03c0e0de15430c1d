package chat

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/attache/attache/hostcore/fault"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// A conversation's tools come from its servers: by default those of its
// attachments (each with the account of its first attachment), plus any
// server the person switched on, minus any switched off (ToolSettings).
// Both APIs want tool names of at most 64 letters, digits, '_' and '-', and
// unique in a request; a tool keeps its own name when it is unique among
// the offered servers, so a model (or a script) can call get_memories by
// that name.

// maxToolName is the longest tool name both APIs accept.
const maxToolName = 64

// badToolRune is what a tool name may not contain.
var badToolRune = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]`) })

// emptySchema is the schema of a tool that declares none: both APIs want
// an object schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// toolServer is a server whose tools a turn offers.
type toolServer struct {
	name string
	conn *hostcore.Conn
}

// toolServers returns the servers whose tools a conversation of cv offers
// (reads are its attachments), by name, and says why a server switched on
// could not be reached.
func toolServers(cv *hostcore.Conversations, reads []hostcore.AttachmentRead, settings ToolSettings) ([]toolServer, []string) {
	var out []toolServer
	var warnings []string
	seen := map[string]bool{}
	add := func(name string, conn func() (*hostcore.Conn, error)) {
		if seen[name] {
			return
		}
		seen[name] = true
		if on, set := settings.Servers[name]; set && !on {
			return
		}
		c, err := conn()
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the tools of %s are not offered: %s", name, fault.Message(err)))
			return
		}
		out = append(out, toolServer{name, c})
	}
	for _, r := range reads {
		a := r.Attachment
		name := a.Server.Name
		if sc, err := cv.ServerFor(a.Server); err == nil {
			name = sc.Name // an ad-hoc server stored as "ad-hoc" has its own name now
		}
		add(name, func() (*hostcore.Conn, error) { return cv.ConnFor(a) })
	}
	for _, name := range slices.Sorted(maps.Keys(settings.Servers)) {
		if settings.Servers[name] {
			add(name, func() (*hostcore.Conn, error) {
				sc, err := cv.ServerFor(hostcore.ServerRef{Name: name})
				if err != nil {
					return nil, err
				}
				return cv.Host().ConnFor(sc, "")
			})
		}
	}
	slices.SortFunc(out, func(a, b toolServer) int { return cmp.Compare(a.name, b.name) })
	return out, warnings
}

// offerTools lists the tools of servers that the consent scope offers,
// and names them for the model. A server whose tools cannot be listed is
// left out, with a warning.
func offerTools(ctx context.Context, scope *consent.Scope, servers []toolServer) ([]OfferedTool, map[string]*hostcore.Conn, []string) {
	var offered []OfferedTool
	var warnings []string
	conns := map[string]*hostcore.Conn{}
	for _, s := range servers {
		tools, _, err := scope.Offer(ctx, s.conn)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("the tools of %s are not offered: %s", s.name, fault.Message(err)))
			continue
		}
		conns[s.name] = s.conn
		offered = append(offered, offeredTools(s.name, s.conn, tools)...)
	}
	return nameTools(offered), conns, warnings
}

// offeredTools are a server's tools as offered, not yet named.
func offeredTools(server string, c *hostcore.Conn, tools []toolcall.Tool) []OfferedTool {
	out := make([]OfferedTool, 0, len(tools))
	for _, t := range tools {
		schema := t.InputSchema
		if len(schema) == 0 || string(schema) == "null" {
			schema = emptySchema
		}
		out = append(out, OfferedTool{Server: server, Account: c.Account.Name, Tool: t.Name,
			Description: t.Description, InputSchema: schema, ReadOnly: t.ReadOnly, Destructive: t.Destructive})
	}
	return out
}

// Offered returns c's tools as a turn offering that server alone names
// them: each keeps its own name, made acceptable to both APIs. The lab
// offers a server's tools so.
func Offered(c *hostcore.Conn, tools []toolcall.Tool) []OfferedTool {
	return nameTools(offeredTools(c.Server.Name, c, tools))
}

// nameTools names offered tools for the model: a tool's own name when no
// other server offers one of that name, else prefixed with its server's.
func nameTools(offered []OfferedTool) []OfferedTool {
	owners := map[string]int{} // tool name → how many servers offer one
	for _, t := range offered {
		owners[t.Tool]++
	}
	used := map[string]bool{}
	for i := range offered {
		t := &offered[i]
		name := t.Tool
		if owners[name] > 1 {
			name = t.Server + "__" + name
		}
		t.Name = uniqueToolName(toolName(name), used)
		used[t.Name] = true
	}
	return offered
}

// toolName makes name acceptable to both APIs: other characters become
// '_', and a name too long keeps its start and a hash of the whole.
func toolName(name string) string {
	n := badToolRune().ReplaceAllString(name, "_")
	if n == "" {
		n = "tool"
	}
	if len(n) > maxToolName {
		sum := sha256.Sum256([]byte(name))
		n = n[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
	}
	return n
}

// uniqueToolName suffixes name with _2, _3... until no other tool has it.
func uniqueToolName(name string, used map[string]bool) string {
	if !used[name] {
		return name
	}
	for i := 2; ; i++ {
		suffix := "_" + strconv.Itoa(i)
		n := name
		if len(n)+len(suffix) > maxToolName {
			n = n[:maxToolName-len(suffix)]
		}
		if !used[n+suffix] {
			return n + suffix
		}
	}
}

// ListingTokens is what the listing of tools costs in each request: the tokens of the specs as JSON,
// which is close to what the providers turn them into (OpenAI and Anthropic
// render tools into the prompt in formats of their own, which they do not
// publish).
func ListingTokens(tools []OfferedTool, counter pack.TokenCounter) int {
	if len(tools) == 0 {
		return 0
	}
	specs := make([]ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = t.Spec()
	}
	b, err := json.Marshal(specs)
	if err != nil {
		return 0
	}
	return counter.Count(string(b))
}
