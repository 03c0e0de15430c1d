package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

// The model side of the host. hostcore says what it needs of a model in
// Model and speaks its own message types; the adapters that speak OpenAI's
// Chat Completions and Anthropic's Messages through the vendors' SDKs live
// in package provider, outside the domain, so that the SDKs (and what they
// pull in) never reach hostcore. cmd/ wires a provider to a Chat.

// Model is a chat model the host sends requests to. Implementations must
// be safe for concurrent use.
type Model interface {
	// Complete sends req and returns the model's reply. When the reply is
	// streamed, onText (if not nil) is called with each piece of text as it
	// arrives, in order, on the caller's goroutine.
	//
	// On failure the reply holds what had arrived before it (the text
	// streamed so far), so that nothing the person saw is lost, and the
	// error is an *Error: KindUnauthorized or KindForbidden for a key the
	// provider refuses (401, 403), KindServerFault for 429 and 5xx,
	// KindTransport when the provider cannot be reached, KindProtocol for
	// a reply or stream that cannot be understood, KindCanceled when ctx
	// ends (the Stop button).
	Complete(ctx context.Context, req ModelRequest, onText func(string)) (ModelReply, error)
}

// ModelRequest is one request to a model.
type ModelRequest struct {
	// System is the system prompt: the host's preamble and the assembled
	// context (see Chat). Both APIs take it apart from the messages.
	System string `json:"system"`
	// Messages is the conversation so far, oldest first.
	Messages []Message `json:"messages"`
	// Images are the context's images: the providers send them as image
	// blocks at the head of the first message of the person's, each after
	// a line with its uri.
	Images []ContextImage `json:"images,omitempty"`
	// Tools are offered to the model.
	Tools []ToolSpec `json:"tools,omitempty"`
	// NoToolCalls tells the model not to call tools in this reply (tool
	// choice "none"). The tools are still declared: both APIs refuse a
	// history that holds tool calls without them.
	NoToolCalls bool `json:"noToolCalls,omitempty"`
}

// Role says who a message is from.
type Role string

// The roles of a message.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool is a tool's result, sent back to the model.
	RoleTool Role = "tool"
)

// Message is one message of a conversation, in the host's terms: the
// providers translate it to their wire format.
type Message struct {
	Role Role `json:"role"`
	// Text is what the person or the model wrote, or a tool's result.
	Text string `json:"text,omitempty"`
	// ToolCalls are the tools an assistant message asks to call.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and ToolName say which call a tool message answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	// IsError marks a tool message that reports a failure: the tool's own,
	// a denial, or arguments that were not valid JSON.
	IsError bool `json:"isError,omitempty"`
	// Decision is the consent gate's, for a tool message: who or what
	// approved the call, or why it was not run.
	Decision *consent.ToolDecision `json:"decision,omitempty"`
	// Content is a tool message's result, entry by entry, as the person
	// is shown it (each body over 64 KiB dropped: see
	// ToolResult.KeptContent); the providers send Text alone.
	Content []toolcall.Content `json:"content,omitempty"`
	// HeldBack says what of the result the model was not sent: each
	// entry whose audience is the user alone.
	HeldBack []string `json:"heldBack,omitempty"`
}

// ToolCall is a model's request to call a tool.
type ToolCall struct {
	// ID is the provider's id of the call, echoed in the result.
	ID string `json:"id"`
	// Name is the tool's name as offered to the model (see OfferedTool).
	Name string `json:"name"`
	// Arguments is the JSON text the model wrote, as it wrote it, valid or
	// not.
	Arguments string `json:"arguments"`
}

// ToolSpec is a tool as the model is told of it.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// ModelReply is a model's answer to one request.
type ModelReply struct {
	// Text is the reply's text.
	Text string `json:"text,omitempty"`
	// ToolCalls are the tools the model asks to call, in order.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// StopReason is why the model stopped, as the provider said it
	// ("stop", "end_turn", "tool_calls", "tool_use", "length").
	StopReason string `json:"stopReason,omitempty"`
	// Model is the model that answered, as the provider reported it.
	Model string `json:"model,omitempty"`
	// Usage is what the provider reported it counted.
	Usage Usage `json:"usage"`
}

// Usage is the token count a provider reported for one request.
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// Reported is false when the provider sent no usage (some
	// OpenAI-compatible servers do not, when streaming).
	Reported bool `json:"reported"`
}

// NewModelError returns an error of kind for a provider's failure: msg is
// safe to show, cause is the detail (for --verbose and the inspector), and
// status is the HTTP status that explains the failure, if any. Provider
// adapters use it to speak the host's error kinds.
func NewModelError(kind fault.Kind, status int, cause error, format string, args ...any) *fault.Error {
	e := fault.New(kind, cause, format, args...)
	e.HTTPStatus = status
	return e
}

// modelStopped is the error of a turn whose ctx ended: stopped by the
// person (canceled), or out of the caller's time (its deadline passed).
func modelStopped(ctx context.Context, cause error) *fault.Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fault.New(fault.KindTimeout, cause, "the turn did not end in time")
	}
	return fault.New(fault.KindCanceled, cause, "stopped")
}

// String describes a tool call for logs: the name and the arguments.
func (tc ToolCall) String() string { return fmt.Sprintf("%s(%s)", tc.Name, tc.Arguments) }
