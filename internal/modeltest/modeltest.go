// Package modeltest is a scripted model provider for tests: one HTTP
// server that speaks both wire formats the host uses, OpenAI's Chat
// Completions (POST /v1/chat/completions) and Anthropic's Messages (POST
// /v1/messages), and answers each request with the next step of a script.
// No model can be reached from the machines that run the tests, so this is
// what the provider adapters and attachectl send are tested against.
//
// It is faithful to what the vendors send, byte for byte where it matters:
//
//   - streaming replies as server-sent events: OpenAI's chat.completion.chunk
//     objects (a role chunk, content deltas, tool_calls deltas whose first
//     chunk carries id, type and name and the rest pieces of the arguments, a
//     finish_reason chunk, a usage chunk with empty choices when
//     stream_options.include_usage was asked for, then "data: [DONE]"), and
//     Anthropic's events (message_start with the input tokens, ping,
//     content_block_start / content_block_delta (text_delta,
//     input_json_delta) / content_block_stop, message_delta with the
//     stop_reason and output tokens, message_stop);
//   - whole replies (chat.completion, message) when the request does not
//     ask to stream;
//   - errors in each API's envelope, with its status: 401 (a key other than
//     Options.Key), 429 with Retry-After, 500, and any other status a step
//     asks for;
//   - faults: a stream that breaks off in the middle of a JSON object, and
//     one that ends before its closing event.
//
// Every request is recorded (Requests), so a test can assert on the
// system prompt, the messages and the tools the host sent.
package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Reply is what the scripted model answers to one request.
type Reply struct {
	// Text is the assistant's text; streamed in Chunks pieces.
	Text string
	// ToolCalls are the tools the model calls, in order.
	ToolCalls []Call
	// Chunks is how many pieces Text and each call's arguments are
	// streamed in; 0 means 3.
	Chunks int
	// InputTokens and OutputTokens are the usage reported; 0 means 11 and
	// 7. NoUsage sends none (OpenAI: no usage chunk; Anthropic always
	// sends usage, so NoUsage is ignored there).
	InputTokens, OutputTokens int
	NoUsage                   bool
	// Status, when not 0 or 200, answers with an error of that status in
	// the API's envelope, with Message (or a vendor-like default) and the
	// Retry-After header if set.
	Status     int
	Message    string
	RetryAfter string
	// Malformed breaks the stream off in the middle of a JSON object,
	// after the first piece of text. Truncated ends it cleanly but before
	// its closing event ([DONE], message_stop) and without a stop reason.
	Malformed, Truncated bool
}

// Call is a tool call of a reply. Arguments is sent as is, so it may be
// invalid JSON (only a streamed Anthropic reply can carry invalid JSON,
// since a whole one holds the arguments as an object).
type Call struct {
	ID, Name, Arguments string
}

// Step answers one request; it may look at the request (to echo an id
// from the context, say).
type Step func(Request) Reply

// Say is a step that always answers r.
func Say(r Reply) Step { return func(Request) Reply { return r } }

// Request is a request the server got.
type Request struct {
	// API is "openai" or "anthropic".
	API    string
	Path   string
	Header http.Header
	Body   json.RawMessage
	// Stream is the request's "stream" field.
	Stream bool
}

// Options configure a Server.
type Options struct {
	// Key, when set, is the only key accepted, as "Authorization: Bearer
	// KEY" (both APIs; anthropic-sdk-go v2 sends its key so) or Anthropic's
	// "x-api-key: KEY". Any other gets a 401, as the vendors answer.
	Key string
}

// Server is the scripted provider. It is safe for concurrent use.
type Server struct {
	srv  *httptest.Server
	opts Options

	mu       sync.Mutex
	script   []Step
	requests []Request
}

// New starts a server that answers with script, one step per request; a
// request after the last step gets a 500 saying the script is exhausted.
func New(opts *Options, script ...Step) *Server {
	s := &Server{script: script}
	if opts != nil {
		s.opts = *opts
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// OpenAIBaseURL is the base URL to give an OpenAI client.
func (s *Server) OpenAIBaseURL() string { return s.srv.URL + "/v1" }

// AnthropicBaseURL is the base URL to give an Anthropic client.
func (s *Server) AnthropicBaseURL() string { return s.srv.URL }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Then appends steps to the script.
func (s *Server) Then(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var api string
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		api = "openai"
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		api = "anthropic"
	default:
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var head struct {
		Stream bool   `json:"stream"`
		Model  string `json:"model"`
	}
	if json.Unmarshal(body, &head) != nil {
		writeError(w, api, Reply{Status: 400, Message: "the body is not JSON"})
		return
	}
	req := Request{API: api, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Stream: head.Stream}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	var step Step
	if len(s.script) > 0 {
		step, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	if !s.authorized(api, r.Header) {
		writeError(w, api, Reply{Status: 401})
		return
	}
	if step == nil {
		writeError(w, api, Reply{Status: 500, Message: "modeltest: the script is exhausted"})
		return
	}
	reply := step(req)
	switch {
	case reply.Status != 0 && reply.Status != http.StatusOK:
		writeError(w, api, reply)
	case api == "openai":
		openAIReply(w, head.Model, head.Stream, wantsUsage(body), reply)
	default:
		anthropicReply(w, head.Model, head.Stream, reply)
	}
}

func (s *Server) authorized(api string, h http.Header) bool {
	if s.opts.Key == "" {
		return true
	}
	if h.Get("Authorization") == "Bearer "+s.opts.Key {
		return true
	}
	return api == "anthropic" && h.Get("X-Api-Key") == s.opts.Key
}

// wantsUsage reports whether an OpenAI request asked for the usage chunk.
func wantsUsage(body []byte) bool {
	var b struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	return json.Unmarshal(body, &b) == nil && b.StreamOptions.IncludeUsage
}

// writeError answers with the API's error envelope.
func writeError(w http.ResponseWriter, api string, r Reply) {
	typ, msg := errorTypes(api, r.Status)
	if r.Message != "" {
		msg = r.Message
	}
	if r.RetryAfter != "" {
		w.Header().Set("Retry-After", r.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	var body any
	if api == "openai" {
		w.Header().Set("X-Request-Id", "req_modeltest")
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": openAICode(r.Status)}}
	} else {
		w.Header().Set("Request-Id", "req_modeltest")
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_modeltest"}
	}
	w.WriteHeader(r.Status)
	json.NewEncoder(w).Encode(body)
}

// errorTypes are each vendor's error type and usual message for a status.
func errorTypes(api string, status int) (typ, msg string) {
	openai := api == "openai"
	switch {
	case status == 401 && openai:
		return "invalid_request_error", "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys."
	case status == 401:
		return "authentication_error", "invalid x-api-key"
	case status == 429 && openai:
		return "requests", "Rate limit reached for requests. Please try again later."
	case status == 429:
		return "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"
	case status == 529:
		return "overloaded_error", "Overloaded"
	case status >= 500 && openai:
		return "server_error", "The server had an error while processing your request. Sorry about that!"
	case status >= 500:
		return "api_error", "Internal server error"
	case openai:
		return "invalid_request_error", fmt.Sprintf("modeltest: status %d", status)
	}
	return "invalid_request_error", fmt.Sprintf("modeltest: status %d", status)
}

func openAICode(status int) any {
	switch status {
	case 401:
		return "invalid_api_key"
	case 429:
		return "rate_limit_exceeded"
	}
	return nil
}

// pieces splits s into at most n pieces on rune boundaries; an empty s is
// one empty piece.
func pieces(s string, n int) []string {
	if n <= 0 {
		n = 3
	}
	runes := []rune(s)
	if len(runes) == 0 {
		return []string{""}
	}
	size := (len(runes) + n - 1) / n
	var out []string
	for i := 0; i < len(runes); i += size {
		out = append(out, string(runes[i:min(i+size, len(runes))]))
	}
	return out
}

func (r Reply) usage() (in, out int) {
	in, out = r.InputTokens, r.OutputTokens
	if in == 0 {
		in = 11
	}
	if out == 0 {
		out = 7
	}
	return in, out
}

// sse writes server-sent events and flushes each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func startSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w, f}
}

// event writes one event: an optional event line, then the data.
func (s *sse) event(name string, data any) {
	var b []byte
	switch d := data.(type) {
	case string:
		b = []byte(d)
	default:
		b, _ = json.Marshal(d)
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if s.f != nil {
		s.f.Flush()
	}
}

// raw writes bytes as they are, for a broken stream.
func (s *sse) raw(text string) {
	io.WriteString(s.w, text)
	if s.f != nil {
		s.f.Flush()
	}
}

// validObject reports whether s is a JSON object, for a whole Anthropic
// reply (whose tool input is an object on the wire).
func validObject(s string) bool {
	var m map[string]any
	return json.Unmarshal([]byte(s), &m) == nil
}
