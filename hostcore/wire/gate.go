// Package wire is the host's side of the bytes a server sends and
// receives, under the sessions: a Gate holds back each message a server
// sends until it is whole and refuses one over the size limit, a Framer
// splits the host's own stream into messages, a Tap records every message
// as it crossed the wire (for the inspector, the console and the exports),
// and Decode reads a message as go-sdk would. It knows nothing of MCP's
// methods beyond the JSON-RPC envelope, and imports no session code.
package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// A gate holds back each message a server sends until it is whole, and
// refuses one over the host's size limit before anything downstream
// (go-sdk's decoder, the tap) has buffered a byte of it. A refused message
// costs the limit itself, gathered in blocks that are never copied; go-sdk
// on its own would grow a buffer to the limit by doubling and copying (the
// stdio decoder, an SSE line) or read the whole body (a JSON reply), and
// keep the copies until the collector runs.
//
// Whole messages go on to the gate's reader, and to record (the tap). On
// stdio and in a JSON body a message is a JSON value (white space between
// values goes on at once); in an event stream it is an event. Bytes that
// are neither (a banner on stdout) go on at once too, for go-sdk to fail
// on, and are reported to fault. A gate is not safe for concurrent use.
type Gate struct {
	src   io.Reader
	limit int // the longest message; 0 means no limit
	split Splitter
	// Record is given each whole message (at most MaxKept bytes of it,
	// truncated saying so); nil records nothing.
	Record func(msg []byte, truncated bool)
	// Fault is told the first breach: a message over the limit
	// (ErrTooLarge), or bytes that are not a message (*NotJSONError); nil
	// tells no one.
	Fault func(error)
	// Stdout marks the stream as a stdio server's stdout, for the words
	// of a NotJSONError.
	Stdout bool
	// KeepBig, if set, takes the record of a message whose large contents
	// values were taken out (bigread.go): the message with a note in their
	// place, and the values; Record is not called for it then. Only JSON
	// streams are read so.
	KeepBig func(msg []byte, values []Elided)

	scratch  []byte
	cur      blocks // the message being gathered
	ready    blocks // whole messages, to be read
	idle     int    // bytes between messages since the last one
	hint     int    // the size of the last message: the first block of the next
	err      error  // the source's error, or the refusal, once ready is drained
	reported bool
}

// NewGate returns a gate over src that lets through messages of at most
// limit bytes (0: any size), as split finds them (JSONValues, SSEEvents).
// Set Record, Fault and Stdout before the first Read.
func NewGate(src io.Reader, limit int, split Splitter) *Gate {
	return &Gate{src: src, limit: limit, split: split, scratch: make([]byte, 32<<10)}
}

// Read reads whole messages, and the bytes between them; past a breach
// it returns ErrTooLarge, or src's own error once src ends.
func (g *Gate) Read(p []byte) (int, error) {
	for g.ready.n == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.fill()
	}
	return g.ready.read(p), nil
}

// fill reads the source once and sorts what came into messages.
func (g *Gate) fill() {
	n, err := g.src.Read(g.scratch)
	data := g.scratch[:n]
	for len(data) > 0 && g.err == nil {
		k, kind := g.split.scan(data)
		if kind == segMessage && g.cur.n == 0 {
			g.cur.presize(g.hint)
		}
		if k < 0 {
			g.hold(data)
			break
		}
		g.hold(data[:k])
		if g.err == nil {
			g.complete(kind)
		}
		data = data[k:]
	}
	if err != nil && g.err == nil {
		g.cur.reset() // an unfinished message goes nowhere: the reader gets the error instead
		g.err = err
	}
}

// hold adds p to the message being gathered, and refuses the message once
// it is over the limit.
func (g *Gate) hold(p []byte) {
	g.cur.write(p)
	if g.limit > 0 && (g.cur.n > g.limit || g.idle > g.limit) {
		g.cur.reset()
		g.report(ErrTooLarge)
		g.err = ErrTooLarge
	}
}

// complete sends on the message just gathered.
func (g *Gate) complete(kind segment) {
	switch kind {
	case segMessage:
		g.idle = 0
		g.hint = min(g.cur.n, blockMax)
		if big := g.extract(); big != nil { // decoded once (bigread.go)
			g.KeepBig(big.tap, big.values)
			g.cur.reset()
			g.cur.write(big.sdk)
		} else if g.Record != nil {
			g.Record(g.cur.whole(MaxKept))
		}
		if fixed := repairBlocks(&g.cur, g.sse()); fixed != nil { // the tap keeps what was sent (hintrepair.go)
			g.cur.reset()
			g.cur.write(fixed)
		}
	case segBetween:
		g.idle += g.cur.n
	case segStray:
		msg, _ := g.cur.join(maxJunkShown)
		g.report(&NotJSONError{Start: string(bytes.TrimSpace(msg)), Stdout: g.Stdout})
		if g.Record != nil {
			g.Record(msg, g.cur.n > len(msg))
		}
	}
	g.cur.moveTo(&g.ready)
}

// extract takes the large values out of the message gathered, when the
// gate keeps them.
func (g *Gate) extract() *bigReply {
	if g.KeepBig == nil || g.sse() {
		return nil
	}
	return extractBig(&g.cur)
}

// sse reports whether the gate splits an event stream.
func (g *Gate) sse() bool {
	_, ok := g.split.(*sseSplit)
	return ok
}

func (g *Gate) report(err error) {
	if g.Fault != nil && !g.reported {
		g.reported = true
		g.Fault(err)
	}
}

// maxJunkShown bounds how much of stray bytes an error quotes.
const maxJunkShown = 80

// segment is what a Splitter found.
type segment int

const (
	segMessage segment = iota // a whole message
	segBetween                // white space between messages
	segStray                  // bytes between messages that are not white space
)

// A Splitter finds where the messages of a stream end: JSONValues for
// stdio and JSON bodies, SSEEvents for event streams. A Splitter keeps the
// state of one stream.
type Splitter interface {
	// scan reads data, which continues the stream, and returns how many of
	// its bytes end the current segment and what the segment is; or -1
	// when data ends inside a message.
	scan(data []byte) (int, segment)
}

// JSONValues returns a Splitter for a stream of JSON values.
func JSONValues() Splitter { return &jsonSplit{} }

// SSEEvents returns a Splitter for a server-sent event stream.
func SSEEvents() Splitter { return &sseSplit{} }

// jsonSplit splits a stream of JSON values (objects and arrays, as
// JSON-RPC sends them). It tracks strings and escapes, so it does not
// depend on newlines or on how reads split the stream.
type jsonSplit struct {
	depth    int
	inString bool
	escaped  bool
}

func (s *jsonSplit) scan(data []byte) (int, segment) {
	if s.depth == 0 {
		if i := bytes.IndexAny(data, "{["); i != 0 {
			run := data
			if i > 0 {
				run = data[:i]
			}
			if len(bytes.TrimSpace(run)) > 0 {
				return len(run), segStray
			}
			return len(run), segBetween
		}
	}
	// Jump from one byte that matters to the next: most of a message is
	// the text of its strings.
	for i := 0; i < len(data); {
		if s.escaped {
			s.escaped, i = false, i+1
			continue
		}
		stops := &jsonStops
		if s.inString {
			stops = &stringStops
		}
		j := indexAnyOf(data[i:], stops)
		if j < 0 {
			break
		}
		c := data[i+j]
		i += j + 1
		switch c {
		case '\\':
			s.escaped = true
		case '"':
			s.inString = !s.inString
		case '{', '[':
			s.depth++
		case '}', ']':
			if s.depth--; s.depth == 0 {
				return i, segMessage
			}
		}
	}
	return -1, segMessage
}

// byteSet marks the bytes a scan stops at.
type byteSet [256]bool

func newByteSet(stops string) (set byteSet) {
	for i := range len(stops) {
		set[stops[i]] = true
	}
	return set
}

// The bytes that matter to jsonSplit outside a string and inside one.
var (
	jsonStops   = newByteSet(`"{}[]`)
	stringStops = newByteSet(`"\`)
)

// indexAnyOf returns the index of the first byte of data in set, or -1.
func indexAnyOf(data []byte, set *byteSet) int {
	for i, c := range data {
		if set[c] {
			return i
		}
	}
	return -1
}

// sseSplit splits a server-sent event stream into events, each ended by an
// empty line.
type sseSplit struct {
	lineLen int // bytes of the current line, without CR
}

func (s *sseSplit) scan(data []byte) (int, segment) {
	off := 0
	for {
		j := bytes.IndexByte(data[off:], '\n')
		if j < 0 {
			s.lineLen += len(data) - off - bytes.Count(data[off:], []byte("\r"))
			return -1, segMessage
		}
		s.lineLen += j - bytes.Count(data[off:off+j], []byte("\r"))
		off += j + 1
		if s.lineLen == 0 {
			return off, segMessage
		}
		s.lineLen = 0
	}
}

// blocks holds bytes in blocks that grow to blockMax: it grows without
// copying, and read frees each block once it is consumed.
type blocks struct {
	bs [][]byte
	n  int
}

const (
	blockMin = 512
	blockMax = 64 << 10
)

func (b *blocks) write(p []byte) {
	for len(p) > 0 {
		if k := len(b.bs); k > 0 && cap(b.bs[k-1]) > len(b.bs[k-1]) {
			last := b.bs[k-1]
			m := min(cap(last)-len(last), len(p))
			b.bs[k-1] = append(last, p[:m]...)
			b.n, p = b.n+m, p[m:]
			continue
		}
		b.bs = append(b.bs, make([]byte, 0, min(blockMax, max(blockMin, b.n))))
	}
}

func (b *blocks) read(p []byte) int {
	n := 0
	for n < len(p) && len(b.bs) > 0 {
		c := copy(p[n:], b.bs[0])
		n += c
		if b.bs[0] = b.bs[0][c:]; len(b.bs[0]) == 0 {
			b.bs[0] = nil
			b.bs = b.bs[1:]
		}
	}
	b.n -= n
	return n
}

// moveTo appends b's bytes to dst and empties b.
func (b *blocks) moveTo(dst *blocks) {
	for i, blk := range b.bs {
		dst.bs = append(dst.bs, blk[:len(blk):len(blk)]) // full: dst never writes into b's last block
		b.bs[i] = nil
	}
	dst.n += b.n
	b.reset()
}

func (b *blocks) reset() { b.bs, b.n = nil, 0 }

// presize starts b, empty, with a block of n bytes (at most blockMax), so
// that a message the size of the last one is gathered in one block.
func (b *blocks) presize(n int) {
	if len(b.bs) == 0 && n > blockMin {
		b.bs = append(b.bs, make([]byte, 0, min(n, blockMax)))
	}
}

// whole is join, without a copy when b is one block that the message fills
// at least half of: the slice is then shared, read-only, with whoever reads
// b, and what the tap keeps of it is at most twice its length.
func (b *blocks) whole(max int) ([]byte, bool) {
	if len(b.bs) == 1 && b.n <= max && 2*b.n >= cap(b.bs[0]) {
		return b.bs[0][:b.n:b.n], false
	}
	return b.join(max)
}

// join returns the first max bytes of b in one slice, and whether there
// were more.
func (b *blocks) join(max int) ([]byte, bool) {
	out := make([]byte, 0, min(b.n, max))
	for _, blk := range b.bs {
		if len(out)+len(blk) > max {
			return append(out, blk[:max-len(out)]...), true
		}
		out = append(out, blk...)
	}
	return out, false
}

// ErrTooLarge ends a response body or a stdio message over the host's
// size limit.
var ErrTooLarge = errors.New("reply too long: over the host's size limit")

// NotJSONError is a server writing something other than JSON-RPC: on its
// stdout (a banner, a log line), which the stdio transport forbids, or in
// an HTTP reply it says is JSON. Start is the beginning of what it wrote.
type NotJSONError struct {
	Start  string
	Stdout bool
}

func (e *NotJSONError) Error() string {
	if e.Stdout {
		return fmt.Sprintf("the server wrote %q on stdout, which is not JSON-RPC", e.Start)
	}
	return fmt.Sprintf("the server answered %q, which is not JSON-RPC", e.Start)
}
