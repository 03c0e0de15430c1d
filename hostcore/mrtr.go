package hostcore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
)

// Multi round-trip results (SEP-2322, 2026-07-28). A resources/read or a
// tools/call may be answered {"resultType":"input_required"} with
// inputRequests (questions for the client: the host answers elicitation
// through its Elicitor), a requestState (opaque to the client), or both.
// The client sends the request again, with a new JSON-RPC id, the answers
// in inputResponses and the requestState exactly as received, until the
// result is complete.
//
// The host runs the loop itself, with go-sdk's own turned off (it retries
// only a result that carries inputRequests, and answers them out of the
// host's sight): one loop covers both shapes, bounds the rounds, records
// what was asked and answered, and words what it cannot answer. Nothing
// but the final, complete result of the last round may be cached, and
// Complete is set only when no round was needed (see ReadResult.Complete).

// maxInputRounds bounds the requests one multi round-trip call makes, the
// first included: go-sdk's own loop stops at 10 too.
const maxInputRounds = 10

// InputRound is one round of a multi round-trip request: what the server
// asked, and what the host answered, for the person to see.
type InputRound struct {
	// State is set when the result carried a requestState, which the next
	// request echoed. Its value is the server's and is not shown.
	State bool `json:"state,omitempty"`
	// Asked are the input requests of the round, by their server-assigned
	// keys, in key order.
	Asked []InputQuestion `json:"asked,omitempty"`
}

// InputQuestion is one input request and its answer.
type InputQuestion struct {
	Key string `json:"key"`
	// Method is the request's method: elicitation/create (the only one
	// the host answers), sampling/createMessage or roots/list.
	Method  string `json:"method"`
	Message string `json:"message,omitempty"`
	// Action is accept, decline or cancel; Content the accepted values.
	Action  ElicitAction   `json:"action,omitempty"`
	Content map[string]any `json:"content,omitempty"`
}

// roundTrip is what the loop needs of one method's result.
type roundTrip struct {
	needsInput bool
	requests   mcp.InputRequestMap
	state      string
}

// roundOf reads the multi round-trip fields of a result.
func roundOf(res mcp.Result) roundTrip {
	switch r := res.(type) {
	case *mcp.ReadResourceResult:
		return roundTrip{r.NeedsInput(), r.InputRequests, r.RequestState}
	case *mcp.CallToolResult:
		return roundTrip{r.NeedsInput(), r.InputRequests, r.RequestState}
	case *mcp.GetPromptResult:
		return roundTrip{r.NeedsInput(), r.InputRequests, r.RequestState}
	}
	return roundTrip{}
}

// multiRound sends a request with send, and again while the result asks
// for input, answering it and echoing its requestState. send gets the
// answers and the state of the previous round (nil and "" the first time)
// and must send a new request each time: go-sdk gives each its own id.
// what names the request in errors ("reading URI"). The rounds are
// returned beside the final result, which is complete.
func multiRound[R mcp.Result](ctx context.Context, c *Conn, what string, send func(context.Context, mcp.InputResponseMap, string) (R, error)) (R, []InputRound, error) {
	var zero R
	var rounds []InputRound
	var answers mcp.InputResponseMap
	state := ""
	for n := 1; ; n++ {
		res, err := send(ctx, answers, state)
		if err != nil {
			return zero, rounds, err
		}
		rt := roundOf(res)
		if !rt.needsInput {
			return res, rounds, nil
		}
		if len(rt.requests) == 0 && rt.state == "" {
			return zero, rounds, protocolError("", "%s: %s answered input_required with neither inputRequests nor a requestState: the result is not complete and there is nothing to answer",
				what, c.Server.Name)
		}
		if n == maxInputRounds {
			return zero, rounds, newError(fault.KindServerFault, nil, "%s: %s still asked for input after %d rounds; the host stopped there",
				what, c.Server.Name, maxInputRounds)
		}
		round := InputRound{State: rt.state != ""}
		answers, round.Asked, err = c.answerInputs(ctx, what, rt.requests)
		rounds = append(rounds, round)
		if err != nil {
			return zero, rounds, err
		}
		state = rt.state
	}
}

// answerInputs answers a round's input requests: elicitation through the
// host's Elicitor. Sampling and roots are never declared, so a server that
// asks for them, or for elicitation when no Elicitor can answer, gets an
// error that names the request.
func (c *Conn) answerInputs(ctx context.Context, what string, reqs mcp.InputRequestMap) (mcp.InputResponseMap, []InputQuestion, error) {
	if len(reqs) == 0 {
		return nil, nil, nil
	}
	keys := slices.Sorted(maps.Keys(reqs))
	out := make(mcp.InputResponseMap, len(reqs))
	asked := make([]InputQuestion, 0, len(keys))
	for _, k := range keys {
		q := InputQuestion{Key: k, Method: inputMethod(reqs[k])}
		p, ok := reqs[k].(*mcp.ElicitParams)
		if !ok {
			asked = append(asked, q)
			return nil, asked, protocolError("", "%s: %s asked for %s (input request %q), which this client did not declare and does not answer",
				what, c.Server.Name, q.Method, clip(k))
		}
		q.Message = p.Message
		res, err := c.elicit(ctx, what, p)
		if err != nil {
			asked = append(asked, q)
			return nil, asked, err
		}
		q.Action, q.Content = ElicitAction(res.Action), res.Content
		asked = append(asked, q)
		out[k] = res
	}
	return out, asked, nil
}

// inputMethod is the method an input request stands for.
func inputMethod(r mcp.InputRequest) string {
	switch r.(type) {
	case *mcp.ElicitParams:
		return "elicitation/create"
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		return "sampling/createMessage"
	case *mcp.ListRootsParams:
		return "roots/list"
	}
	return fmt.Sprintf("%T", r)
}

// DescribeRounds says in one line what the rounds asked and answered, for
// a person ("asked for name (accept); echoed a requestState").
func DescribeRounds(rounds []InputRound) string {
	var parts []string
	for _, r := range rounds {
		for _, q := range r.Asked {
			parts = append(parts, fmt.Sprintf("asked %q (%s)", clip(q.Message), orWord(string(q.Action), "unanswered")))
		}
		if r.State {
			parts = append(parts, "echoed a requestState")
		}
	}
	return strings.Join(parts, "; ")
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}
