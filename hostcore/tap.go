package hostcore

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
)

// A Tap records the raw JSON-RPC messages of one connection, as bytes on the
// wire, for testers to inspect. It sits below go-sdk (on the stdio pipes, or
// in the HTTP round tripper), never as a wrapping mcp.Connection: go-sdk
// drives the Streamable HTTP client through an unexported interface that a
// wrapper hides, which loses the notification stream (the LoggingTransport
// pitfall). A Tap is safe for concurrent use.
type Tap struct {
	mu      sync.Mutex
	msgs    []TapMessage // the most recent messages, oldest first
	bytes   int          // the size of their Raw bytes
	dropped int          // messages let go to stay within the bounds
	now     Clock
}

// Direction says which way a message went.
type Direction string

// Directions of a message.
const (
	Sent     Direction = "sent"
	Received Direction = "received"
)

// TapMessage is one JSON-RPC message as it crossed the wire.
type TapMessage struct {
	Dir Direction
	At  time.Time
	Raw []byte
	// Truncated is set when Raw holds only the first tapMaxMessage bytes.
	Truncated bool
	env       envelope
	elided    []elided // large values the host read out of it (bigread.go)
}

// Exchange is a request and its response, as bytes on the wire.
type Exchange struct {
	Request  []byte
	Response []byte
	// Truncated is set when either side was cut to bound memory.
	Truncated bool
	// elided are the response's large contents values, taken out of
	// Response and decoded (bigread.go).
	elided []elided
}

// envelope is what the tap reads of each message to pair them up.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Error  json.RawMessage `json:"error"`
	Params struct {
		URI    string `json:"uri"`
		Cursor string `json:"cursor"`
	} `json:"params"`
}

// A tap keeps at most tapCapacity messages and, beyond the newest one,
// tapBudget bytes, so that a long listing does not keep its pages alive.
const (
	tapCapacity   = 4096
	tapBudget     = 4 << 20
	tapMaxMessage = 16 << 20 // bytes kept of one message
)

// NewTap returns an empty tap.
func NewTap(now Clock) *Tap { return &Tap{now: now} }

// record stores one message. raw is copied.
func (t *Tap) record(dir Direction, raw []byte) {
	if t == nil {
		return
	}
	t.keep(dir, bytes.Clone(raw[:min(len(raw), tapMaxMessage)]), len(raw) > tapMaxMessage)
}

// keep stores one message, which becomes the tap's: the caller does not
// touch raw again. truncated says the caller kept only part of it.
func (t *Tap) keep(dir Direction, raw []byte, truncated bool) { t.store(dir, raw, truncated, nil) }

// keepElided stores a message whose large values were taken out; raw is
// kept as it is, not copied.
func (t *Tap) keepElided(dir Direction, raw []byte, values []elided) {
	t.store(dir, raw, false, values)
}

func (t *Tap) store(dir Direction, raw []byte, truncated bool, values []elided) {
	if t == nil {
		return
	}
	m := TapMessage{Dir: dir, At: t.now.now(), Truncated: truncated, elided: values}
	if decodeWire(raw, &m.env) != nil {
		// An odd message (a field of the wrong type, nesting too deep for
		// the fast decoder) gets what encoding/json can make of it; an
		// unparsable one is still recorded.
		m.env = envelope{}
		_ = decodeLenient(raw, &m.env)
	}
	if len(raw) > tapMaxMessage {
		raw, m.Truncated = raw[:tapMaxMessage], true
	}
	m.Raw = raw
	t.mu.Lock()
	defer t.mu.Unlock()
	t.msgs = append(t.msgs, m)
	t.bytes += m.size()
	for len(t.msgs) > tapCapacity || (t.bytes-m.size() > tapBudget && len(t.msgs) > 1) { // the budget is beyond the newest
		t.bytes -= t.msgs[0].size()
		t.msgs[0] = TapMessage{} // let the bytes go
		t.msgs = t.msgs[1:]
		t.dropped++
	}
}

// size is what a message holds: its bytes and the values read out of it.
func (m *TapMessage) size() int {
	n := len(m.Raw)
	for _, v := range m.elided {
		n += len(v.text) + len(v.data)
	}
	return n
}

// Messages returns the recorded messages, oldest first.
func (t *Tap) Messages() []TapMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]TapMessage(nil), t.msgs...)
}

// Find returns the most recent exchange of method whose params carry key as
// their uri or cursor. ok is false when the tap holds no such request.
func (t *Tap) Find(method, key string) (Exchange, bool) {
	if t == nil {
		return Exchange{}, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	at := func(i int) *TapMessage { return &t.msgs[len(t.msgs)-1-i] } // i = 0 is the newest
	for i := range len(t.msgs) {
		req := at(i)
		if req.Dir != Sent || req.env.Method != method || (req.env.Params.URI != key && req.env.Params.Cursor != key) {
			continue
		}
		ex := Exchange{Request: req.Raw, Truncated: req.Truncated}
		for j := i - 1; j >= 0; j-- { // newer messages, oldest first
			if resp := at(j); resp.Dir == Received && resp.env.Method == "" && bytes.Equal(resp.env.ID, req.env.ID) {
				ex.Response, ex.Truncated, ex.elided = resp.Raw, ex.Truncated || resp.Truncated, resp.elided
				break
			}
		}
		return ex, true
	}
	return Exchange{}, false
}

// framer splits a byte stream into JSON values and hands each to emit. It
// tracks nesting, strings and escapes, so it does not depend on how the
// stream was chunked or whether values are separated by newlines. It keeps
// at most tapMaxMessage bytes of a value or of a line that is not JSON.
// The host's own messages go through it; a server's go through a gate.
type framer struct {
	emit     func([]byte)
	buf      []byte
	depth    int
	inString bool
	escaped  bool
}

func (f *framer) Write(p []byte) (int, error) {
	for _, c := range p {
		f.step(c)
	}
	return len(p), nil
}

func (f *framer) step(c byte) {
	if f.depth == 0 && c != '{' && c != '[' {
		if len(f.buf) > 0 || (c != '\n' && c != '\r' && c != ' ' && c != '\t') {
			f.keep(c) // not JSON: keep it, emit at the line's end
			if c == '\n' {
				f.flush()
			}
		}
		return
	}
	f.keep(c)
	switch {
	case f.inString && f.escaped:
		f.escaped = false
	case f.inString && c == '\\':
		f.escaped = true
	case c == '"':
		f.inString = !f.inString
	case f.inString:
	case c == '{' || c == '[':
		f.depth++
	case c == '}' || c == ']':
		f.depth--
		if f.depth == 0 {
			f.flush()
		}
	}
}

func (f *framer) keep(c byte) {
	if len(f.buf) <= tapMaxMessage {
		f.buf = append(f.buf, c)
	}
}

func (f *framer) flush() {
	f.emit(bytes.TrimSpace(f.buf))
	f.buf = f.buf[:0]
}
