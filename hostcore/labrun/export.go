package labrun

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/lab"
)

// FromTurns converts a conversation's stored turns (oldest first) to the
// lab's replay format: the person's message, the resources whose bodies
// the turn sent (attached), and each tool call the model made, by the
// tool's name on its server, each resource and call with the server and
// account it came from (replayed against its own, see origins.go).
// Relevance is the person's to mark: relevant
// gives it by turn number (Seq); a turn not in it needs nothing. A call
// whose arguments were not a JSON object is recorded with none, as the
// host would have refused it. Turns without a message of the person's are
// left out.
func FromTurns(session string, turns []chat.Turn, relevant map[int][]string) []lab.Turn {
	var out []lab.Turn
	for _, t := range turns {
		if len(t.Messages) == 0 || t.Messages[0].Role != chat.RoleUser {
			continue
		}
		rel, ok := relevant[t.Seq]
		if !ok {
			rel = t.Relevant
		}
		lt := lab.Turn{Session: session, Turn: t.Seq, At: t.StartedAt.UTC(), User: t.Messages[0].Text,
			Relevant: append([]string{}, rel...), Attached: []string{}}
		for _, it := range t.Context.Items {
			if it.Sent() {
				lt.Attached = append(lt.Attached, it.URI)
				lt.Origins = append(lt.Origins, lab.Origin{Server: it.Server, Account: it.Account})
			}
		}
		names := map[string]chat.OfferedTool{}
		for _, o := range t.Tools {
			names[o.Name] = o
		}
		for _, m := range t.Messages {
			for _, c := range m.ToolCalls {
				offered, ok := names[c.Name]
				name, origin := offered.Tool, lab.Origin{Server: offered.Server, Account: offered.Account}
				if !ok || name == "" {
					name, origin = c.Name, lab.Origin{} // not offered: recorded as called
				}
				args := json.RawMessage(`{}`)
				if consent.ValidArguments(json.RawMessage(c.Arguments)) == nil && strings.TrimSpace(c.Arguments) != "" {
					args = json.RawMessage(c.Arguments)
				}
				lt.ToolCalls = append(lt.ToolCalls, lab.ToolCall{Name: name, Arguments: args, Origin: origin})
			}
		}
		out = append(out, lt)
	}
	return out
}

// ParseRelevance reads a relevance file: a JSON object from turn numbers
// to the URIs each turn needs, {"1": ["threengram://memory/m1"], "3": []}.
func ParseRelevance(b []byte) (map[int][]string, error) {
	var raw map[string][]string
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fault.New(fault.KindUsage, err, "the relevance file is not a JSON object of turn numbers to URI lists: %v", err)
	}
	out := map[int][]string{}
	for k, v := range raw {
		var n int
		if _, err := fmt.Sscanf(k, "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != k {
			return nil, fault.New(fault.KindUsage, nil, "the relevance file names turn %q: use positive turn numbers", k)
		}
		out[n] = v
	}
	return out, nil
}
