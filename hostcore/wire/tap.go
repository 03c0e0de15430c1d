package wire

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
	now     func() time.Time
	seq     uint64 // the last message's Seq
	pins    pins   // the messages a tester pinned (pin.go)
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
	// Seq numbers the connection's messages from 1, in the order they
	// crossed the wire; it names a message for Pin.
	Seq uint64
	Dir Direction
	At  time.Time
	Raw []byte
	// Truncated is set when Raw holds only the first MaxKept bytes.
	Truncated bool
	env       envelope
	elided    []Elided // large values the host read out of it (bigread.go)
}

// Exchange is a request and its response, as bytes on the wire.
type Exchange struct {
	Request  []byte
	Response []byte
	// Truncated is set when either side was cut to bound memory.
	Truncated bool
	// elided are the response's large contents values, taken out of
	// Response and decoded (bigread.go).
	elided []Elided
}

// Elided are the response's large contents values, taken out of Response
// (where a note stands in their place) and decoded: the read puts them
// back into the result go-sdk decoded without them.
func (e Exchange) Elided() []Elided { return e.elided }

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
	tapCapacity = 4096
	tapBudget   = 4 << 20
)

// MaxKept is how many bytes of one message a tap keeps, and a gate hands
// to Record.
const MaxKept = 16 << 20

// NewTap returns an empty tap that dates each message by now (nil means
// time.Now).
func NewTap(now func() time.Time) *Tap {
	if now == nil {
		now = time.Now
	}
	return &Tap{now: now}
}

// Record stores one message as it crossed the wire in direction dir; raw
// is copied, at most MaxKept bytes of it. A nil Tap records nothing.
func (t *Tap) Record(dir Direction, raw []byte) {
	if t == nil {
		return
	}
	t.Keep(dir, bytes.Clone(raw[:min(len(raw), MaxKept)]), len(raw) > MaxKept)
}

// Keep stores one message, which becomes the tap's: the caller does not
// touch raw again. truncated says the caller kept only part of it.
func (t *Tap) Keep(dir Direction, raw []byte, truncated bool) { t.store(dir, raw, truncated, nil) }

// KeepElided stores a message whose large values were taken out
// (bigread.go); raw is kept as it is, not copied.
func (t *Tap) KeepElided(dir Direction, raw []byte, values []Elided) {
	t.store(dir, raw, false, values)
}

func (t *Tap) store(dir Direction, raw []byte, truncated bool, values []Elided) {
	if t == nil {
		return
	}
	m := TapMessage{Dir: dir, At: t.now(), Truncated: truncated, elided: values}
	if Decode(raw, &m.env) != nil {
		// An odd message (a field of the wrong type, nesting too deep for
		// the fast decoder) gets what encoding/json can make of it; an
		// unparsable one is still recorded.
		m.env = envelope{}
		_ = DecodeLenient(raw, &m.env)
	}
	if len(raw) > MaxKept {
		raw, m.Truncated = raw[:MaxKept], true
	}
	m.Raw = raw
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	m.Seq = t.seq
	t.msgs = append(t.msgs, m)
	t.bytes += m.size()
	for len(t.msgs) > tapCapacity || (t.bytes-m.size() > tapBudget && len(t.msgs) > 1) { // the budget is beyond the newest
		t.bytes -= t.msgs[0].size()
		t.letGo(t.msgs[0])       // a pinned one is kept
		t.msgs[0] = TapMessage{} // let the bytes go
		t.msgs = t.msgs[1:]
	}
}

// size is what a message holds: its bytes and the values read out of it.
func (m *TapMessage) size() int {
	n := len(m.Raw)
	for _, v := range m.elided {
		n += len(v.Text) + len(v.Data)
	}
	return n
}

// Clear lets every recorded message go, the pinned ones too, when the
// connection's authorization context ends: the record holds its private
// bodies.
func (t *Tap) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.msgs, t.bytes, t.dropped = nil, 0, 0
	t.pins = pins{}
}

// Messages returns the recorded messages, oldest first: the pinned ones
// the record's bounds let go of, then the most recent.
func (t *Tap) Messages() []TapMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.all()
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

// Framer splits a byte stream into JSON values and hands each to emit. It
// tracks nesting, strings and escapes, so it does not depend on how the
// stream was chunked or whether values are separated by newlines. It keeps
// at most MaxKept bytes of a value or of a line that is not JSON.
// The host's own messages go through it; a server's go through a gate.
type Framer struct {
	emit     func([]byte) // each whole value, or line that is not JSON
	buf      []byte
	depth    int
	inString bool
	escaped  bool
}

// NewFramer returns a Framer that hands each value to emit, on the
// writer's goroutine.
func NewFramer(emit func([]byte)) *Framer { return &Framer{emit: emit} }

// Write frames p, which continues the stream; it never fails.
func (f *Framer) Write(p []byte) (int, error) {
	for _, c := range p {
		f.step(c)
	}
	return len(p), nil
}

func (f *Framer) step(c byte) {
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

func (f *Framer) keep(c byte) {
	if len(f.buf) <= MaxKept {
		f.buf = append(f.buf, c)
	}
}

func (f *Framer) flush() {
	f.emit(bytes.TrimSpace(f.buf))
	f.buf = f.buf[:0]
}
