package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// anthropicBase is Anthropic's own API.
const anthropicBase = "https://api.anthropic.com"

// anthropicModel speaks Messages. The context goes in the top-level
// "system" field. Messages alternate between user and assistant, so tool
// results (tool_result blocks) and the person's text that follow each other
// share one user message.
type anthropicModel struct {
	client anthropic.Client
	pc     models.Provider
	base   string
}

func newAnthropic(pc models.Provider, key string, client *http.Client) *anthropicModel {
	base := pc.BaseURL
	if base == "" {
		base = anthropicBase
	}
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithBaseURL(base),
		option.WithMaxRetries(retries(pc))}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	if client != nil {
		opts = append(opts, option.WithHTTPClient(client))
	}
	return &anthropicModel{client: anthropic.NewClient(opts...), pc: pc, base: base}
}

// Complete implements chat.Model.
func (m *anthropicModel) Complete(ctx context.Context, req chat.ModelRequest, onText func(string)) (chat.ModelReply, error) {
	params := m.params(req)
	if m.pc.NoStream {
		msg, err := m.client.Messages.New(ctx, params)
		if err != nil {
			return chat.ModelReply{}, failure(err, m.pc, m.base)
		}
		reply := anthropicReply(msg, nil)
		if onText != nil && reply.Text != "" {
			onText(reply.Text)
		}
		return reply, nil
	}
	stream := m.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	var text strings.Builder
	// The SDK's accumulator replaces tool input that is not valid JSON by
	// {}; the host keeps what the model wrote, to tell it so.
	partial := map[int64]*strings.Builder{}
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := ctx.Err(); err != nil { // Stop: do not read on what is buffered
			return chat.ModelReply{Text: text.String()}, failure(err, m.pc, m.base)
		}
		if err := msg.Accumulate(ev); err != nil {
			return chat.ModelReply{Text: text.String()}, chat.NewModelError(fault.KindProtocol, 0, err,
				"provider %s sent stream events that do not fit together", m.pc.Name)
		}
		switch {
		case ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta":
			text.WriteString(ev.Delta.Text)
			if onText != nil {
				onText(ev.Delta.Text)
			}
		case ev.Type == "content_block_delta" && ev.Delta.Type == "input_json_delta":
			if partial[ev.Index] == nil {
				partial[ev.Index] = &strings.Builder{}
			}
			partial[ev.Index].WriteString(ev.Delta.PartialJSON)
		case ev.Type == "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		return chat.ModelReply{Text: text.String()}, failure(err, m.pc, m.base)
	}
	if !stopped || msg.StopReason == "" {
		return chat.ModelReply{Text: text.String()}, incomplete(m.pc)
	}
	return anthropicReply(&msg, partial), nil
}

// params translates a request.
func (m *anthropicModel) params(req chat.ModelRequest) anthropic.MessageNewParams {
	p := anthropic.MessageNewParams{Model: anthropic.Model(m.pc.Model), MaxTokens: int64(m.pc.ReplyBound()),
		Messages: anthropicMessages(req.Messages)}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: inputSchema(t.InputSchema)}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	if req.NoToolCalls && len(req.Tools) > 0 {
		p.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
	}
	return p
}

// anthropicMessages translates messages, merging neighbours of the same
// role, and leaving out empty text (the API refuses an empty text block).
func anthropicMessages(msgs []chat.Message) []anthropic.MessageParam {
	type turn struct {
		assistant bool
		blocks    []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	add := func(assistant bool, blocks ...anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			return
		}
		turns = append(turns, turn{assistant, blocks})
	}
	for _, msg := range msgs {
		switch msg.Role {
		case chat.RoleAssistant:
			var blocks []anthropic.ContentBlockParamUnion
			if msg.Text != "" {
				blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
			}
			for _, c := range msg.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, toolInput(c.Arguments), c.Name))
			}
			add(true, blocks...)
		case chat.RoleTool:
			text := msg.Text
			if text == "" {
				text = "(empty)"
			}
			add(false, anthropic.NewToolResultBlock(msg.ToolCallID, text, msg.IsError))
		default:
			if msg.Text != "" {
				add(false, anthropic.NewTextBlock(msg.Text))
			}
		}
	}
	out := make([]anthropic.MessageParam, len(turns))
	for i, t := range turns {
		if t.assistant {
			out[i] = anthropic.NewAssistantMessage(t.blocks...)
		} else {
			out[i] = anthropic.NewUserMessage(t.blocks...)
		}
	}
	return out
}

// toolInput is a call's arguments as the object the API wants: the
// model's own JSON, or {} when it was not an object (the result then says
// why the call was not run).
func toolInput(args string) any {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return map[string]any{}
	}
	return json.RawMessage(args)
}

// inputSchema splits a JSON Schema into the SDK's fields; keys it has no
// field for ($defs, additionalProperties...) go along as extra fields.
func inputSchema(raw json.RawMessage) anthropic.ToolInputSchemaParam {
	var schema map[string]any
	json.Unmarshal(raw, &schema)
	var s anthropic.ToolInputSchemaParam
	for k, v := range schema {
		switch k {
		case "type":
		case "properties":
			s.Properties = v
		case "required":
			if list, ok := v.([]any); ok {
				for _, r := range list {
					if name, ok := r.(string); ok {
						s.Required = append(s.Required, name)
					}
				}
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	if s.Properties == nil {
		s.Properties = map[string]any{}
	}
	return s
}

// anthropicReply reads a message; partial holds each tool_use block's
// input as streamed, by index.
func anthropicReply(msg *anthropic.Message, partial map[int64]*strings.Builder) chat.ModelReply {
	r := chat.ModelReply{StopReason: string(msg.StopReason), Model: string(msg.Model),
		Usage: chat.Usage{InputTokens: msg.Usage.InputTokens + msg.Usage.CacheCreationInputTokens + msg.Usage.CacheReadInputTokens,
			OutputTokens: msg.Usage.OutputTokens, Reported: true}}
	var text []string
	for i, b := range msg.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			args := string(b.Input)
			if p := partial[int64(i)]; p != nil {
				args = p.String()
			}
			r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	r.Text = strings.Join(text, "")
	return r
}
