package mcptest

import (
	"io"
	"net/http"
)

// rawSessionID is the Mcp-Session-Id the raw server hands out on
// initialize. It checks nothing: a session only makes the client send
// DELETE on close, as it would to a real server.
const rawSessionID = "mcptest-raw-session"

// maxRawRequest bounds the body of a request to the raw server.
const maxRawRequest = 1 << 20

// ServeHTTP answers the raw modes over Streamable HTTP: every POST with
// application/json (202 for a notification), GET with 405, DELETE with 200.
// unauthorized and forbidden answer everything with 401 and 403.
func (s *rawServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.dead() {
		panic(http.ErrAbortHandler) // a dead server answers nothing
	}
	if s.refuse(w) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.servePOST(w, r)
	case http.MethodDelete:
		w.WriteHeader(http.StatusOK)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// refuse answers the status modes and reports whether it did.
func (s *rawServer) refuse(w http.ResponseWriter) bool {
	switch s.mode {
	case ModeUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcptest"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	case ModeForbidden:
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcptest", error="insufficient_scope", scope="mcptest:read"`)
		http.Error(w, "Forbidden", http.StatusForbidden)
	default:
		return false
	}
	return true
}

// servePOST answers one JSON-RPC message.
func (s *rawServer) servePOST(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRawRequest))
	if err != nil {
		http.Error(w, "reading request: "+err.Error(), http.StatusBadRequest)
		return
	}
	msg, req, err := s.handle(r.Context(), body)
	switch {
	case s.dead():
		panic(http.ErrAbortHandler)
	case err != nil:
		return // the client went away
	case msg == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if req.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", rawSessionID)
	}
	_ = msg(w, req.ID) // a failed write means the client is gone
}
