package labrun

import (
	"context"
	"encoding/json"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/toolcall"
)

// A live lab run asks a real model every turn, with the server's tools
// offered (and, for the both strategy, the attached bodies in the system
// prompt), and makes the calls it actually asks for instead of the
// recorded ones. Each turn is asked on its own, without the session's
// earlier turns: what is measured is whether the model fetches the data
// this turn needs, not how it carries a conversation. Every call the
// model asks for goes to the consent gate, as a recorded one does: by
// default only the tools the server marks read-only are offered and run,
// so a model steered by what it reads (a prompt injection in an attached
// memory) cannot make the host write.

// live runs one turn against o.Model.
func (r *strategyRun) live(ctx context.Context, t lab.Turn, st *turnState, user int) error {
	system := chat.Preamble + "\n"
	if st.context.Len() > 0 {
		system += "\n# Attached context\n\n" + st.context.String()
	} else {
		system += "\nNo resource is attached to this conversation.\n"
	}
	specs := make([]chat.ToolSpec, len(r.offered))
	for i, o := range r.offered {
		specs[i] = o.Spec()
	}
	base := r.o.Tokens.Count(system) + user + r.listing
	msgs := []chat.Message{{Role: chat.RoleUser, Text: t.User}}
	for round := 1; round <= chat.DefaultMaxToolRounds+1; round++ {
		req := chat.ModelRequest{System: system, Messages: msgs, Tools: specs, NoToolCalls: round > chat.DefaultMaxToolRounds}
		st.ob.Requests = append(st.ob.Requests, lab.Request{Listing: r.listing, Total: base + st.exchange})
		reply, err := r.o.Model.Complete(ctx, req, nil)
		if err != nil {
			return err
		}
		if len(reply.ToolCalls) == 0 || req.NoToolCalls {
			return nil
		}
		msgs = append(msgs, chat.Message{Role: chat.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
		for _, call := range reply.ToolCalls {
			st.exchange += r.o.Tokens.Count(call.Name) + r.o.Tokens.Count(call.Arguments)
			req := consent.ToolRequest{Turn: t.Turn, Round: round, Tool: toolcall.Tool{Name: call.Name}, Arguments: json.RawMessage(call.Arguments)}
			text, err := r.callTool(ctx, r.c, lab.Origin{}, t, req, st)
			if err != nil {
				return err
			}
			msgs = append(msgs, chat.Message{Role: chat.RoleTool, ToolCallID: call.ID, ToolName: call.Name, Text: text})
		}
	}
	return nil
}
