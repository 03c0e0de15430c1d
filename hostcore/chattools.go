package hostcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/attache/attache/hostcore/pack"
)

// Every tool call the model asks for is checked, then approved by the
// person (or by the policy), then run; whatever happens, the model gets a
// result for it, so that it can go on: arguments that are not valid JSON,
// an unknown tool, a denial and a failed call are results marked as errors,
// never a failed turn.

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
	args, err := parseArguments(call.Arguments)
	if err != nil {
		res.Text = "The tool was not called: its arguments are not a valid JSON object (" + err.Error() + ")."
		r.emit(Event{Kind: EventWarning, Round: round, Text: "the model called " + t.Name + " with arguments that are not a JSON object (" + err.Error() + "); it is told so"})
		r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res})
		return res
	}
	approval := r.approve(ctx, round, t, call, args)
	switch {
	case approval == ApproveDeny:
		res.Text = "The person denied this call; it was not run."
	default:
		res.Text, res.IsError = r.call(ctx, t, args)
	}
	r.emit(Event{Kind: EventToolResult, Round: round, Call: &call, Tool: &t, Result: &res, Approval: approval})
	return res
}

// parseArguments checks that a call's arguments are a JSON object; empty
// arguments (what some models send for a tool without parameters) are an
// empty object.
func parseArguments(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return json.RawMessage(`{}`), nil
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, errors.New("not valid JSON: " + err.Error())
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: more than one value")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("a JSON value, but not an object")
	}
	return json.RawMessage(s), nil
}

// approve returns the approval of a call under the turn's policy.
func (r *turnRun) approve(ctx context.Context, round int, t OfferedTool, call ToolCall, args json.RawMessage) Approval {
	switch {
	case r.opts.Tools == ToolsAuto:
		return ApproveOnce
	case slices.Contains(r.always[t.Server], t.Tool):
		return ApproveAlways
	}
	a, err := r.opts.Approve(ctx, ToolRequest{ConversationID: r.turn.ConversationID, Turn: r.turn.Seq, Round: round,
		Tool: t, Call: call, Arguments: args})
	switch {
	case err != nil, ctx.Err() != nil:
		return ApproveDeny
	case a == ApproveAlways:
		if err := r.ch.store.GrantTool(saveCtx(ctx), r.turn.ConversationID, t.Server, t.Tool); err != nil {
			r.emit(Event{Kind: EventWarning, Round: round, Text: "could not remember Always for " + t.Name + ": " + messageOf(err)})
		}
		if r.always == nil {
			r.always = map[string][]string{}
		}
		r.always[t.Server] = append(r.always[t.Server], t.Tool)
		return ApproveAlways
	case a == ApproveOnce:
		return ApproveOnce
	}
	return ApproveDeny
}

// call runs an approved call and renders its result for the model.
func (r *turnRun) call(ctx context.Context, t OfferedTool, args json.RawMessage) (text string, isError bool) {
	c := r.conns[t.Server]
	if c == nil {
		return "The tool's server is not connected.", true
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // numbers reach the server as the model wrote them
	if err := dec.Decode(&m); err != nil {
		return "The tool was not called: " + err.Error(), true
	}
	res, err := c.CallTool(ctx, t.Tool, m)
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

// messageOf is the message of err that is safe to show.
func messageOf(err error) string {
	var he *Error
	if errors.As(err, &he) && he.Message() != "" {
		return he.Message()
	}
	return err.Error()
}
