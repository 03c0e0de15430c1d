package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// A large read is decoded once. go-sdk, left to itself, copies a reply of
// 27 MB (a 20 MB blob in base64) five times over: its stream decoder's
// buffer, the JSON-RPC result, its result decoder's buffer, then the blob;
// and the host read the reply again for what go-sdk cannot tell, and
// encoded the blob to base64 again for the cache, for a peak of some 12
// times the body. Instead, the gate (gate.go) takes each large text and
// blob of a result's contents out of a reply as it completes: a blob is
// decoded from base64 as it is read from the gathered blocks, a text
// copied once. go-sdk gets the reply with those values empty (what it
// then decodes is small), the tap the reply with a note in their place,
// and the read (hostcore's ReadServer) takes the values from the tap's record of the
// reply: one copy of the body, shared by the result, the tap and the
// cache (see hostcore's cachedBlobs).

// BigValueMin is the shortest value taken out of a reply: smaller ones
// cost go-sdk little.
const BigValueMin = 256 << 10

// Elided is one value taken out of a reply: its contents entry's index,
// the key (text or blob), and the value decoded.
type Elided struct {
	// Entry is the index of the value's entry in the result's contents.
	Entry int
	// Blob says the value is the entry's blob (Data), not its text (Text).
	Blob bool
	// Text is a text value.
	Text string
	// Data is a blob value, decoded from base64.
	Data []byte
	// Room is Data's whole allocation: FrameRoom bytes, then Data. The
	// cache writes a framed read's head into the room, so that the stored
	// value shares the blob's bytes (hostcore's encodeRead).
	Room []byte
}

// FrameRoom is the room left before a large blob for the head of its
// cache entry.
const FrameRoom = 4 << 10

// span is a string value of the reply, from its opening quote to just past
// its closing one, in offsets of the whole message.
type span struct {
	start, end int
	entry      int
	blob       bool
	escaped    bool // holds a backslash
}

// bigReply is a reply with its large values taken out.
type bigReply struct {
	sdk    []byte   // for go-sdk: each value ""
	tap    []byte   // for the tap: each value a note
	values []Elided // in the order of the spans
}

// extractBig takes the large contents values out of the message gathered
// in b, or returns nil when it has none (or cannot read it: go-sdk then
// gets it whole, and says what is wrong with it).
func extractBig(b *blocks) *bigReply {
	if b.n < BigValueMin {
		return nil
	}
	m := message{bs: b.bs, n: b.n}
	spans := m.contentSpans()
	if len(spans) == 0 {
		return nil
	}
	out := &bigReply{}
	for _, s := range spans {
		v, ok := m.decodeValue(s)
		if !ok {
			return nil
		}
		out.values = append(out.values, v)
	}
	out.sdk = m.without(spans, func(span) string { return `""` })
	out.tap = m.without(spans, func(s span) string {
		what := "text"
		if s.blob {
			what = "base64"
		}
		return fmt.Sprintf(`"(%d bytes of %s, read by the host and left out of this record)"`, s.end-s.start-2, what)
	})
	return out
}

// message is a message held in blocks, read by offset.
type message struct {
	bs [][]byte
	n  int
}

// each calls f with the message's bytes from off on, block by block, until
// f returns false.
func (m message) each(off int, f func(p []byte, at int) bool) {
	at := 0
	for _, blk := range m.bs {
		if at+len(blk) <= off {
			at += len(blk)
			continue
		}
		lo := max(0, off-at)
		if !f(blk[lo:], at+lo) {
			return
		}
		at += len(blk)
	}
}

// contentSpans finds the large string values at result.contents[i].text
// and result.contents[i].blob. It walks the message's structure once; a
// message that is not the JSON it should be gives no spans.
func (m message) contentSpans() []span {
	w := &spanWalker{}
	m.each(0, func(p []byte, at int) bool {
		for i, c := range p {
			if !w.step(c, at+i) {
				return false
			}
		}
		return true
	})
	if w.bad {
		return nil
	}
	return w.spans
}

// spanWalker is contentSpans' state: a stack of the open containers, and
// the string being read.
type spanWalker struct {
	stack    []frame
	inString bool
	escaped  bool
	isKey    bool
	key      []byte // the key being read (keys of interest are short)
	cur      span
	hasEsc   bool
	target   bool // the string being read is a value of interest
	spans    []span
	bad      bool
}

type frame struct {
	obj     bool
	key     string // an object's last key
	index   int    // an array's element count
	wantKey bool   // an object expects a key next
}

func (w *spanWalker) step(c byte, at int) bool {
	if w.inString {
		w.stringByte(c, at)
		return true
	}
	switch c {
	case '"':
		w.inString, w.escaped, w.hasEsc = true, false, false
		top := w.top()
		w.isKey = top != nil && top.obj && top.wantKey
		w.key = w.key[:0]
		w.cur = span{start: at}
		w.target = !w.isKey && w.atValue()
	case '{':
		w.stack = append(w.stack, frame{obj: true, wantKey: true})
	case '[':
		w.stack = append(w.stack, frame{})
	case '}', ']':
		if len(w.stack) == 0 {
			w.bad = true
			return false
		}
		w.stack = w.stack[:len(w.stack)-1]
		if len(w.stack) == 0 {
			return false // the message's end
		}
	case ',':
		if top := w.top(); top != nil {
			if top.obj {
				top.wantKey = true
			} else {
				top.index++
			}
		}
	}
	return true
}

func (w *spanWalker) stringByte(c byte, at int) {
	switch {
	case w.escaped:
		w.escaped = false
	case c == '\\':
		w.escaped, w.hasEsc = true, true
	case c == '"':
		w.inString = false
		if w.isKey {
			if top := w.top(); top != nil {
				top.key, top.wantKey = string(w.key), false
			}
			return
		}
		w.cur.end, w.cur.escaped = at+1, w.hasEsc
		if w.target && w.cur.end-w.cur.start-2 >= BigValueMin {
			w.spans = append(w.spans, w.cur)
		}
		return
	}
	if w.isKey && len(w.key) < 16 {
		w.key = append(w.key, c)
	}
}

func (w *spanWalker) top() *frame {
	if len(w.stack) == 0 {
		return nil
	}
	return &w.stack[len(w.stack)-1]
}

// atValue reports whether a string value now is result.contents[i].text
// or .blob, and notes which in w.cur.
func (w *spanWalker) atValue() bool {
	s := w.stack
	if len(s) != 4 || !s[0].obj || s[0].key != "result" || !s[1].obj || s[1].key != "contents" || s[2].obj || !s[3].obj {
		return false
	}
	switch s[3].key {
	case "text":
		w.cur.entry = s[2].index
	case "blob":
		w.cur.entry, w.cur.blob = s[2].index, true
	default:
		return false
	}
	return true
}

// reader reads the bytes of [from, to) of the message.
func (m message) reader(from, to int) io.Reader {
	var parts []io.Reader
	m.each(from, func(p []byte, at int) bool {
		if at >= to {
			return false
		}
		parts = append(parts, bytes.NewReader(p[:min(len(p), to-at)]))
		return at+len(p) < to
	})
	return io.MultiReader(parts...)
}

// decodeValue decodes one span: a blob from base64, a text as JSON
// unescapes it. Values with escapes, or texts that are not UTF-8 (which
// JSON decoding would alter), are decoded as JSON from one copy.
func (m message) decodeValue(s span) (Elided, bool) {
	v := Elided{Entry: s.entry, Blob: s.blob}
	inner := m.reader(s.start+1, s.end-1)
	n := s.end - s.start - 2
	if s.escaped {
		raw, err := io.ReadAll(m.reader(s.start, s.end))
		if err != nil || json.Unmarshal(raw, &v.Text) != nil {
			return v, false
		}
		if !s.blob {
			return v, true
		}
		data, err := base64.StdEncoding.DecodeString(v.Text)
		v.Text, v.Data = "", data
		return v, err == nil
	}
	if s.blob {
		v.Room = make([]byte, FrameRoom+base64.StdEncoding.DecodedLen(n))
		k, err := io.ReadFull(base64.NewDecoder(base64.StdEncoding, inner), v.Room[FrameRoom:])
		if err != nil && err != io.ErrUnexpectedEOF {
			return v, false
		}
		v.Room = v.Room[:FrameRoom+k]
		v.Data = v.Room[FrameRoom:]
		return v, true
	}
	var sb strings.Builder
	sb.Grow(n)
	if _, err := io.Copy(&sb, inner); err != nil {
		return v, false
	}
	v.Text = sb.String()
	return v, utf8.ValidString(v.Text)
}

// without returns the message with each span replaced by what with gives.
func (m message) without(spans []span, with func(span) string) []byte {
	size := m.n
	for _, s := range spans {
		size -= s.end - s.start
	}
	out := make([]byte, 0, size+len(spans)*80)
	pos := 0
	for _, s := range spans {
		out = appendRange(out, m, pos, s.start)
		out = append(out, with(s)...)
		pos = s.end
	}
	return appendRange(out, m, pos, m.n)
}

func appendRange(out []byte, m message, from, to int) []byte {
	m.each(from, func(p []byte, at int) bool {
		if at >= to {
			return false
		}
		out = append(out, p[:min(len(p), to-at)]...)
		return at+len(p) < to
	})
	return out
}
