package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/attache/attache/hostcore/fault"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// Every tool call the model asks for goes to the consent gate (see
// consent.go), under the turn's policy and the conversation's grants, and
// runs only on its approval; whatever happens, the model gets a result for
// it, so that it can go on: arguments that are not valid JSON, an unknown
// tool, a denial and a failed call are results marked as errors, never a
// failed turn.

// runTool handles one call and returns the tool message for the model.
func (r *turnRun) runTool(ctx context.Context, round int, call ToolCall) Message {
	res := Message{Role: RoleTool, ToolCallID: call.ID, ToolName: call.Name, IsError: true}
	t, ok := r.tools[call.Name]
	if !ok {
		res.Text = fmt.Sprintf("There is no tool named %q in this conversation.", call.Name)
		r.emit(Event{Kind: EventWarning, Round: round, Text: "the model called " + pack.OneLine(call.Name) + ", which is not offered"})
		r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Result: &res})
		return res
	}
	r.emit(Event{Kind: EventToolCall, Round: round, Call: &call, Tool: &t})
	c := r.conns[t.Server]
	if c == nil {
		res.Text = "The tool's server is not connected."
		r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res, Approval: consent.ApproveDeny})
		return res
	}
	d := r.scope.Decide(ctx, c, consent.ToolRequest{Turn: r.turn.Seq, Round: round, Tool: toolcall.Tool{Name: t.Tool},
		Name: t.Name, Arguments: json.RawMessage(call.Arguments)})
	res.Decision = &d.ToolDecision
	switch {
	case d.Refusal == consent.RefusedBadArguments:
		r.emit(Event{Kind: EventWarning, Round: round, Text: "the model called " + t.Name + " with arguments that are not a JSON object (" + d.Note + "); it is told so"})
		res.Text = d.ModelText()
	case !d.Run:
		res.Text = d.ModelText()
	default:
		if d.Note != "" {
			r.emit(Event{Kind: EventWarning, Round: round, Text: d.Note})
		}
		r.call(ctx, c, d, &res)
		for _, h := range res.HeldBack {
			r.emit(Event{Kind: EventWarning, Round: round, Text: "held back from the model (for the person only): " + h})
		}
	}
	r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res, Approval: d.Approval(), Decision: &d.ToolDecision})
	return res
}

// call runs an approved call and puts its result in m: the text for the
// model, the entries for the person, what was held back from the model.
func (r *turnRun) call(ctx context.Context, c *hostcore.Conn, d *consent.Permit, m *Message) {
	res, err := c.CallTool(ctx, d)
	if err != nil {
		m.Text, m.IsError = "The call failed: "+fault.Message(err)+".", true
		return
	}
	m.Text, m.IsError = ToolResultText(res, r.ch.opts.MaxToolResultBytes), res.IsError
	m.Content, m.HeldBack = res.KeptContent(), res.HeldBack()
}

// ToolResultText is what the model gets of a result (a turn's, or a lab
// run's: ToolResult.ModelText, the audience rule applied to each entry);
// cut at limit bytes (on a rune boundary) with a note of how much was cut.
func ToolResultText(res *hostcore.ToolResult, limit int) string {
	text, _ := res.ModelText()
	if text == "" {
		text = "(the tool returned nothing)"
	}
	if len(text) <= limit {
		return text
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n[cut: %s more]", pack.Quantity(len(text)-cut, "byte"))
}
