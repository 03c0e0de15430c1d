package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// openAIBase is OpenAI's own API.
const openAIBase = "https://api.openai.com/v1"

// openAIModel speaks Chat Completions. The context goes in a leading
// "system" message, which every compatible server takes; a tool's result
// is a "tool" message, which has no error flag, so a failed call's text
// starts with "Error: ".
type openAIModel struct {
	client openai.Client
	pc     models.Provider
	base   string
}

func newOpenAI(pc models.Provider, key string, client *http.Client) *openAIModel {
	base := pc.BaseURL
	if base == "" {
		base = openAIBase
	}
	// openai.NewClient always reads the environment first (unlike
	// Anthropic's, it has no switch for it), so every option it takes from
	// there is overridden here: the base URL and the key are set, and the
	// headers it would add (organization, project, OPENAI_CUSTOM_HEADERS)
	// removed.
	opts := []option.RequestOption{option.WithBaseURL(base), option.WithAPIKey(key),
		option.WithMaxRetries(retries(pc)), option.WithHeaderDel("OpenAI-Organization"),
		option.WithHeaderDel("OpenAI-Project")}
	for _, line := range strings.Split(os.Getenv("OPENAI_CUSTOM_HEADERS"), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "" {
			opts = append(opts, option.WithHeaderDel(strings.TrimSpace(name)))
		}
	}
	if client != nil {
		opts = append(opts, option.WithHTTPClient(client))
	}
	return &openAIModel{client: openai.NewClient(opts...), pc: pc, base: base}
}

// vendor reports whether the base URL is OpenAI's own API, which wants
// max_completion_tokens; compatible servers (Ollama, llama.cpp) know
// max_tokens.
func (m *openAIModel) vendor() bool {
	u, err := url.Parse(m.base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// Complete implements chat.Model.
func (m *openAIModel) Complete(ctx context.Context, req chat.ModelRequest, onText func(string)) (chat.ModelReply, error) {
	params := m.params(req)
	if m.pc.NoStream {
		c, err := m.client.Chat.Completions.New(ctx, params)
		if err != nil {
			return chat.ModelReply{}, failure(err, m.pc, m.base)
		}
		if len(c.Choices) == 0 {
			return chat.ModelReply{}, incomplete(m.pc)
		}
		reply := openAIReply(c)
		if onText != nil && reply.Text != "" {
			onText(reply.Text)
		}
		return reply, nil
	}
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)}
	stream := m.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	var text strings.Builder
	for stream.Next() {
		chunk := stream.Current()
		if err := ctx.Err(); err != nil { // Stop: do not read on what is buffered
			return chat.ModelReply{Text: text.String()}, failure(err, m.pc, m.base)
		}
		if !acc.AddChunk(chunk) {
			return chat.ModelReply{Text: text.String()}, chat.NewModelError(fault.KindProtocol, 0, nil,
				"provider %s sent stream chunks that do not fit together", m.pc.Name)
		}
		for _, ch := range chunk.Choices {
			if ch.Index == 0 && ch.Delta.Content != "" {
				text.WriteString(ch.Delta.Content)
				if onText != nil {
					onText(ch.Delta.Content)
				}
			}
		}
	}
	if err := stream.Err(); err != nil {
		return chat.ModelReply{Text: text.String()}, failure(err, m.pc, m.base)
	}
	if len(acc.Choices) == 0 || acc.Choices[0].FinishReason == "" {
		return chat.ModelReply{Text: text.String()}, incomplete(m.pc)
	}
	return openAIReply(&acc.ChatCompletion), nil
}

// params translates a request.
func (m *openAIModel) params(req chat.ModelRequest) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(m.pc.Model)}
	if m.vendor() {
		p.MaxCompletionTokens = param.NewOpt(int64(m.pc.ReplyBound()))
	} else {
		p.MaxTokens = param.NewOpt(int64(m.pc.ReplyBound()))
	}
	p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	for _, msg := range req.Messages {
		p.Messages = append(p.Messages, openAIMessage(msg))
	}
	for _, t := range req.Tools {
		var schema map[string]any
		json.Unmarshal(t.InputSchema, &schema)
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if req.NoToolCalls && len(req.Tools) > 0 {
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt("none")}
	}
	return p
}

func openAIMessage(msg chat.Message) openai.ChatCompletionMessageParamUnion {
	switch msg.Role {
	case chat.RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if msg.Text != "" || len(msg.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(msg.Text)
		}
		for _, c := range msg.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments}}})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
	case chat.RoleTool:
		text := msg.Text
		if msg.IsError {
			text = "Error: " + text
		}
		return openai.ToolMessage(text, msg.ToolCallID)
	}
	return openai.UserMessage(msg.Text)
}

// openAIReply reads a completion's first choice.
func openAIReply(c *openai.ChatCompletion) chat.ModelReply {
	ch := c.Choices[0]
	r := chat.ModelReply{Text: ch.Message.Content, StopReason: ch.FinishReason, Model: c.Model}
	for _, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	if c.JSON.Usage.Valid() || c.Usage.TotalTokens > 0 {
		r.Usage = chat.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens, Reported: true}
	}
	return r
}
