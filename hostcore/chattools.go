package hostcore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/attache/attache/hostcore/pack"
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
		r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res, Approval: ApproveDeny})
		return res
	}
	d := r.scope.Decide(ctx, c, ToolRequest{Turn: r.turn.Seq, Round: round, Tool: Tool{Name: t.Tool},
		Name: t.Name, Arguments: json.RawMessage(call.Arguments)})
	res.Decision = &d.ToolDecision
	switch {
	case d.Refusal == RefusedBadArguments:
		r.emit(Event{Kind: EventWarning, Round: round, Text: "the model called " + t.Name + " with arguments that are not a JSON object (" + d.Note + "); it is told so"})
		res.Text = d.ModelText()
	case !d.Run:
		res.Text = d.ModelText()
	default:
		if d.Note != "" {
			r.emit(Event{Kind: EventWarning, Round: round, Text: d.Note})
		}
		res.Text, res.IsError = r.call(ctx, c, d)
	}
	r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res, Approval: d.Approval(), Decision: &d.ToolDecision})
	return res
}

// call runs an approved call and renders its result for the model.
func (r *turnRun) call(ctx context.Context, c *Conn, d *Permit) (text string, isError bool) {
	res, err := c.CallTool(ctx, d)
	if err != nil {
		return "The call failed: " + messageOf(err) + ".", true
	}
	return toolResultText(res, r.ch.opts.MaxToolResultBytes), res.IsError
}

// toolResultText is what the model gets of a result: its text, else its
// structured content, then a line per entry that is not text; cut at
// limit bytes (on a rune boundary) with a note of how much was cut.
func toolResultText(res *ToolResult, limit int) string {
	text := res.Text
	if text == "" && len(res.Structured) > 0 {
		text = string(res.Structured)
	}
	for _, o := range res.Omitted {
		text += "\n[" + o + "]"
	}
	text = strings.TrimPrefix(text, "\n")
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
