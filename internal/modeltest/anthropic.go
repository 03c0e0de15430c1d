package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropicReply answers a message, streamed or whole.
func anthropicReply(w http.ResponseWriter, model string, stream bool, r Reply) {
	stop := "end_turn"
	if len(r.ToolCalls) > 0 {
		stop = "tool_use"
	}
	in, out := r.usage()
	if !stream {
		var content []any
		if r.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": r.Text})
		}
		for _, c := range r.ToolCalls {
			var input any = map[string]any{}
			if validObject(c.Arguments) {
				input = json.RawMessage(c.Arguments)
			}
			content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": input})
		}
		if content == nil {
			content = []any{}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_modeltest")
		json.NewEncoder(w).Encode(map[string]any{"id": "msg_modeltest", "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": in, "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}})
		return
	}
	w.Header().Set("Request-Id", "req_modeltest")
	s := startSSE(w)
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_modeltest", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})
	index := 0
	if r.Text != "" {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}})
		s.event("ping", map[string]any{"type": "ping"})
		for i, p := range pieces(r.Text, r.Chunks) {
			if r.Malformed && i == 1 {
				s.raw(fmt.Sprintf("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":%d,\"delta\":{\"type\":\"text_delta\",\"text\":\"\n\n", index))
				return
			}
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "text_delta", "text": p}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	for _, c := range r.ToolCalls {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}})
		for _, p := range pieces(c.Arguments, r.Chunks) {
			s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
		}
		s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	if r.Malformed {
		s.raw("event: message_delta\ndata: {\"type\":\"message_delta\",\n\n")
		return
	}
	if r.Truncated {
		return
	}
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": out}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}
