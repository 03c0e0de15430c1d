package modeltest

import (
	"encoding/json"
	"net/http"
)

// created is the fixed "created" time of every OpenAI reply, so that
// recorded replies compare equal.
const created = 1764547200

// openAIReply answers a chat completion, streamed or whole.
func openAIReply(w http.ResponseWriter, model string, stream, usage bool, r Reply) {
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	in, out := r.usage()
	usageObj := map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out,
		"prompt_tokens_details": map[string]any{"cached_tokens": 0}, "completion_tokens_details": map[string]any{"reasoning_tokens": 0}}
	if !stream {
		msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil, "annotations": []any{}}
		if r.Text != "" {
			msg["content"] = r.Text
		}
		if len(r.ToolCalls) > 0 {
			var calls []any
			for _, c := range r.ToolCalls {
				calls = append(calls, map[string]any{"id": c.ID, "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
			}
			msg["tool_calls"] = calls
		}
		body := map[string]any{"id": "chatcmpl-modeltest", "object": "chat.completion", "created": created, "model": model,
			"system_fingerprint": "fp_modeltest",
			"choices":            []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}}}
		if !r.NoUsage {
			body["usage"] = usageObj
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
		return
	}
	s := startSSE(w)
	chunk := func(delta map[string]any, finish any) map[string]any {
		c := map[string]any{"id": "chatcmpl-modeltest", "object": "chat.completion.chunk", "created": created, "model": model,
			"system_fingerprint": "fp_modeltest",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
		if usage {
			c["usage"] = nil // every chunk but the last carries a null usage
		}
		return c
	}
	s.event("", chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
	if r.Text != "" {
		for i, p := range pieces(r.Text, r.Chunks) {
			if r.Malformed && i == 1 {
				s.raw(`data: {"id":"chatcmpl-modeltest","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"` + "\n\n")
				return
			}
			s.event("", chunk(map[string]any{"content": p}, nil))
		}
	}
	for i, c := range r.ToolCalls {
		s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil))
		for _, p := range pieces(c.Arguments, r.Chunks) {
			s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": p}}}}, nil))
		}
	}
	if r.Malformed {
		s.raw("data: {\"choices\":[{\n\n")
		return
	}
	if r.Truncated {
		return
	}
	s.event("", chunk(map[string]any{}, finish))
	if usage && !r.NoUsage {
		s.event("", map[string]any{"id": "chatcmpl-modeltest", "object": "chat.completion.chunk", "created": created,
			"model": model, "system_fingerprint": "fp_modeltest", "choices": []any{}, "usage": usageObj})
	}
	s.event("", "[DONE]")
}
