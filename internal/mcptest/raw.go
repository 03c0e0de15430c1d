package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The raw modes' one resource and one template. Every read of the raw
// modes, whatever its uri, gets the mode's scripted reply.
const (
	RawResourceURI = "test://raw/doc"
	RawTemplate    = "test://raw/docs/{name}"
	// RawWrongURI is the uri that the wrong-uri mode echoes instead of the
	// requested one.
	RawWrongURI = "test://raw/someone-else"
	// RawText is the body of a read that the raw server answers properly:
	// the slow mode's, after its delay.
	RawText = "raw text\n"
	// InitStderrLines is how many lines not-json-initialize writes to
	// Options.Stderr before its garbage: more than a host keeps.
	InitStderrLines = 25
)

// The JSON-RPC error codes the raw server uses.
const (
	codeParseError         = -32700
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeInternalError      = -32603
	codeResourceNotFound   = -32002
	codeUnsupportedVersion = -32022
)

// ErrDied is returned by ServeStdio when die-on-read has killed the server
// in-process (Options.Exit nil).
var ErrDied = errors.New("server died on resources/read")

// rawServer answers JSON-RPC by hand, without go-sdk, so that it can send
// what no SDK would: it initializes properly (2025-11-25), lists one
// resource and one template, and answers every resources/read with the
// scripted reply of its mode. It is safe for concurrent use.
type rawServer struct {
	mode  string
	opts  Options
	calls inflight
	// died is closed when die-on-read kills the server in-process.
	died    chan struct{}
	dieOnce sync.Once
}

func newRawServer(mode string, o Options) *rawServer {
	return &rawServer{mode: mode, opts: o, calls: inflight{m: map[string]context.CancelFunc{}}, died: make(chan struct{})}
}

// rawRequest is an incoming JSON-RPC message. ID keeps the client's bytes,
// so that a reply echoes them exactly; it is nil for a notification.
type rawRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// handle answers one incoming message. It returns a nil message for
// notifications and for responses to requests the server never sent, and
// ErrDied (or the request's context error) when there is nothing to send.
func (s *rawServer) handle(ctx context.Context, body []byte) (message, rawRequest, error) {
	var req rawRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return rpcError(codeParseError, "Parse error", nil), req, nil
	}
	if req.ID == nil || req.Method == "" {
		if req.Method == "notifications/cancelled" {
			s.calls.cancel(req.Params)
		}
		return nil, req, nil
	}
	ctx, done := s.calls.start(ctx, req.ID)
	defer done()
	msg, err := s.answer(ctx, req)
	return msg, req, err
}

// answer is the raw server's method table. server/discover is not in it:
// answered -32601, it sends a 2026-07-28 client back to initialize.
func (s *rawServer) answer(ctx context.Context, req rawRequest) (message, error) {
	switch req.Method {
	case "initialize":
		if s.mode == ModeNotJSONInit {
			for i := range InitStderrLines {
				fmt.Fprintf(s.opts.Stderr, "stderr line %d\n", i+1)
			}
			return notJSON("this is not json"), nil
		}
		return result(map[string]any{
			"protocolVersion": Version2025Nov,
			"capabilities":    map[string]any{"resources": map[string]any{}},
			"serverInfo":      map[string]any{"name": "mcptest-" + s.mode, "version": "1.0.0"},
		}), nil
	case "ping":
		return result(map[string]any{}), nil
	case "resources/list":
		return result(map[string]any{"resources": []map[string]any{
			{"uri": RawResourceURI, "name": "doc", "mimeType": "text/plain"},
		}}), nil
	case "resources/templates/list":
		return result(map[string]any{"resourceTemplates": []map[string]any{
			{"uriTemplate": RawTemplate, "name": "docs", "mimeType": "text/plain"},
		}}), nil
	case "resources/read":
		return s.read(ctx, req.Params)
	}
	return rpcError(codeMethodNotFound, "Method not found", nil), nil
}

// die ends the server: through Options.Exit when set (mcptestd exits the
// process), otherwise by marking it dead for its transport to act on.
func (s *rawServer) die() error {
	if s.opts.Exit != nil {
		s.opts.Exit(3)
	}
	s.dieOnce.Do(func() { close(s.died) })
	return ErrDied
}

// dead reports whether die-on-read has killed the server in-process.
func (s *rawServer) dead() bool {
	select {
	case <-s.died:
		return true
	default:
		return false
	}
}

// inflight tracks the requests being answered, so that
// notifications/cancelled can stop one (the slow mode's wait).
type inflight struct {
	mu sync.Mutex
	m  map[string]context.CancelFunc
}

// start registers the request id and returns its context and the function
// that unregisters it.
func (f *inflight) start(ctx context.Context, id json.RawMessage) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	f.mu.Lock()
	f.m[string(id)] = cancel
	f.mu.Unlock()
	return ctx, func() {
		f.mu.Lock()
		delete(f.m, string(id))
		f.mu.Unlock()
		cancel()
	}
}

// cancel stops the request named by a notifications/cancelled.
func (f *inflight) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	f.mu.Lock()
	cancel := f.m[string(p.RequestID)]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// message writes one JSON-RPC reply with the given id, without a newline.
type message func(w io.Writer, id json.RawMessage) error

// rawResponse is a JSON-RPC response as the raw server writes it.
type rawResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rawError       `json:"error,omitempty"`
}

// rawError is a JSON-RPC error object.
type rawError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// result is the message of a successful reply.
func result(v any) message {
	return func(w io.Writer, id json.RawMessage) error {
		return writeJSON(w, rawResponse{JSONRPC: "2.0", ID: id, Result: v})
	}
}

// rpcError is the message of an error reply.
func rpcError(code int, text string, data any) message {
	return func(w io.Writer, id json.RawMessage) error {
		return writeJSON(w, rawResponse{JSONRPC: "2.0", ID: id, Error: &rawError{Code: code, Message: text, Data: data}})
	}
}

// notJSON is a reply that is not JSON at all.
func notJSON(text string) message {
	return func(w io.Writer, _ json.RawMessage) error {
		_, err := io.WriteString(w, text)
		return err
	}
}

// writeJSON writes v as one line of JSON, without the newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
