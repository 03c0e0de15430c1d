package modeltest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Parsed is a recorded request in terms both APIs share, for assertions.
type Parsed struct {
	Model string
	// System is the system prompt: OpenAI's leading system (or developer)
	// messages, Anthropic's system blocks, joined.
	System string
	// Messages are the other messages. A tool result is a message of role
	// "tool" (OpenAI's tool message, Anthropic's tool_result block).
	Messages []Message
	// Tools are the names of the tools offered, in order.
	Tools []string
	// ToolChoice is "none" when the request forbids tool calls, else "".
	ToolChoice string
	// MaxTokens is max_tokens (or OpenAI's max_completion_tokens).
	MaxTokens int
}

// Message is one message of a Parsed request.
type Message struct {
	Role       string
	Text       string
	ToolCalls  []Call
	ToolCallID string
	IsError    bool
}

// Parse reads the request's body.
func (r Request) Parse() (Parsed, error) {
	if r.API == "openai" {
		return parseOpenAI(r.Body)
	}
	return parseAnthropic(r.Body)
}

// ToolResults returns the text of every tool result the request carries.
func (p Parsed) ToolResults() []string {
	var out []string
	for _, m := range p.Messages {
		if m.Role == "tool" {
			out = append(out, m.Text)
		}
	}
	return out
}

// LastUser returns the text of the last message of the person.
func (p Parsed) LastUser() string {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		if p.Messages[i].Role == "user" {
			return p.Messages[i].Text
		}
	}
	return ""
}

// textOf reads a content that is a string or an array of text parts.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func parseOpenAI(body []byte) (Parsed, error) {
	var b struct {
		Model       string `json:"model"`
		MaxTokens   int    `json:"max_tokens"`
		MaxComplete int    `json:"max_completion_tokens"`
		Messages    []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return Parsed{}, fmt.Errorf("an OpenAI request that is not JSON: %w", err)
	}
	p := Parsed{Model: b.Model, MaxTokens: max(b.MaxTokens, b.MaxComplete)}
	var system []string
	for _, m := range b.Messages {
		switch m.Role {
		case "system", "developer":
			system = append(system, textOf(m.Content))
			continue
		}
		msg := Message{Role: m.Role, Text: textOf(m.Content), ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		p.Messages = append(p.Messages, msg)
	}
	p.System = strings.Join(system, "\n")
	for _, t := range b.Tools {
		p.Tools = append(p.Tools, t.Function.Name)
	}
	if string(b.ToolChoice) == `"none"` {
		p.ToolChoice = "none"
	}
	return p, nil
}

func parseAnthropic(body []byte) (Parsed, error) {
	var b struct {
		Model     string          `json:"model"`
		MaxTokens int             `json:"max_tokens"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		ToolChoice struct {
			Type string `json:"type"`
		} `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return Parsed{}, fmt.Errorf("an Anthropic request that is not JSON: %w", err)
	}
	p := Parsed{Model: b.Model, MaxTokens: b.MaxTokens, System: textOf(b.System)}
	for _, m := range b.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			p.Messages = append(p.Messages, Message{Role: m.Role, Text: textOf(m.Content)})
			continue
		}
		msg := Message{Role: m.Role}
		var texts []string
		for _, bl := range blocks {
			switch bl.Type {
			case "text":
				texts = append(texts, bl.Text)
			case "tool_use":
				msg.ToolCalls = append(msg.ToolCalls, Call{ID: bl.ID, Name: bl.Name, Arguments: string(bl.Input)})
			case "tool_result":
				p.Messages = append(p.Messages, Message{Role: "tool", Text: textOf(bl.Content), ToolCallID: bl.ToolUseID, IsError: bl.IsError})
			}
		}
		if len(texts) > 0 || len(msg.ToolCalls) > 0 {
			msg.Text = strings.Join(texts, "\n")
			p.Messages = append(p.Messages, msg)
		}
	}
	for _, t := range b.Tools {
		p.Tools = append(p.Tools, t.Name)
	}
	if b.ToolChoice.Type == "none" {
		p.ToolChoice = "none"
	}
	return p, nil
}
