package hosttest

import (
	"context"
	"slices"
	"sync"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
)

// Step answers one request of a ScriptModel.
type Step func(chat.ModelRequest) (chat.ModelReply, error)

// ScriptModel is a model at the edge of the domain: each request gets the
// next step's reply (its text streamed in two pieces), and every request
// is kept. A request past the last step fails with a server fault. The
// providers' own wire formats are tested in package provider against
// internal/modeltest. It is safe for concurrent use.
type ScriptModel struct {
	mu       sync.Mutex
	steps    []Step
	requests []chat.ModelRequest
}

// Complete implements chat.Model.
func (m *ScriptModel) Complete(ctx context.Context, req chat.ModelRequest, onText func(string)) (chat.ModelReply, error) {
	m.mu.Lock()
	m.requests = append(m.requests, req)
	if len(m.steps) == 0 {
		m.mu.Unlock()
		return chat.ModelReply{}, chat.NewModelError(fault.KindServerFault, 500, nil, "script exhausted")
	}
	step := m.steps[0]
	m.steps = m.steps[1:]
	m.mu.Unlock()
	reply, err := step(req)
	if half := len(reply.Text) / 2; onText != nil && reply.Text != "" {
		onText(reply.Text[:half])
		onText(reply.Text[half:])
	}
	return reply, err
}

// Then appends steps to the script and returns m.
func (m *ScriptModel) Then(steps ...Step) *ScriptModel {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps = append(m.steps, steps...)
	return m
}

// Sent returns the requests m was sent, in order.
func (m *ScriptModel) Sent() []chat.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Say is a step that answers text, with the provider's usage.
func Say(text string) Step {
	return func(chat.ModelRequest) (chat.ModelReply, error) {
		return chat.ModelReply{Text: text, StopReason: "stop", Usage: chat.Usage{InputTokens: 100, OutputTokens: 5, Reported: true}}, nil
	}
}

// CallTool is a step that calls the tool name with args (as the model
// wrote them, valid JSON or not).
func CallTool(name, args string) Step {
	return func(chat.ModelRequest) (chat.ModelReply, error) {
		return chat.ModelReply{ToolCalls: []chat.ToolCall{{ID: "call_" + name, Name: name, Arguments: args}},
			StopReason: "tool_calls", Usage: chat.Usage{InputTokens: 90, OutputTokens: 12, Reported: true}}, nil
	}
}
