package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cache hints are optional (SEP-2549): a bad one must never fail the
// result it rides on. go-sdk v1.8.0 decodes ttlMs into an int and
// cacheScope into a string, and a value of another shape fails the whole
// result. ttlMs is a JSON Schema "integer", which any number with no
// fraction is: 1.5e4 and -0.0 are the integers 15000 and 0, and MCP
// Inspector (JavaScript numbers) reads them so. Before a message reaches
// go-sdk, the gate (gate.go) rewrites a result's ttlMs that is integer-
// valued but not written as a plain integer to its plain form, and one
// that is no integer at all (a fraction, a string, out of range), or a
// cacheScope that is no string, to null, which go-sdk reads as absent. The
// tap keeps the message as the server sent it, and the host reads the
// hints from there (hostcore's readHints) to say what it made of them.

// ttlKey and scopeKey are what a message that may need repair contains.
var (
	ttlKey   = []byte(`"ttlMs"`)
	scopeKey = []byte(`"cacheScope"`)
)

// repairHints returns msg with its result's hints made readable by go-sdk,
// or nil when they need no repair (the usual case, decided without a copy
// when msg names neither hint).
func repairHints(msg []byte) []byte {
	if !bytes.Contains(msg, ttlKey) && !bytes.Contains(msg, scopeKey) {
		return nil
	}
	var env map[string]json.RawMessage
	if Decode(msg, &env) != nil {
		return nil // not an object: go-sdk says what is wrong with it
	}
	var result map[string]json.RawMessage
	if raw, ok := env["result"]; !ok || Decode(raw, &result) != nil {
		return nil
	}
	changed := false
	if raw, ok := result["ttlMs"]; ok {
		if ms, note := ReadTTL(raw); note != "" {
			result["ttlMs"], changed = ttlLiteral(ms), true
		}
	}
	if raw, ok := result["cacheScope"]; ok && !IsJSONString(raw) && string(raw) != "null" {
		result["cacheScope"], changed = json.RawMessage("null"), true
	}
	if !changed {
		return nil
	}
	b, err := json.Marshal(result)
	if err != nil {
		return nil
	}
	env["result"] = b
	out, err := json.Marshal(env)
	if err != nil {
		return nil
	}
	return out
}

// ttlLiteral is the plain form of a repaired ttlMs: its integer, or null.
func ttlLiteral(ms *int64) json.RawMessage {
	if ms == nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(strconv.FormatInt(*ms, 10))
}

// IsJSONString reports whether raw is a JSON string.
func IsJSONString(raw json.RawMessage) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil
}

// ReadTTL reads a ttlMs as sent: its value, nil when it is absent (null) or
// no integer; and, for a value not written as a plain integer, what the
// host made of it, to say with -v ("" for a plain integer).
func ReadTTL(raw json.RawMessage) (*int64, string) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || s == "null" {
		return nil, ""
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && s != "-0" {
		return &n, ""
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !isNumberSyntax(s):
		return nil, fmt.Sprintf("the server's ttlMs %s is not a number; treated as absent", clip(s))
	case err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger:
		return nil, fmt.Sprintf("the server's ttlMs %s is not an integer; treated as absent", clip(s))
	}
	n := int64(f)
	return &n, fmt.Sprintf("the server wrote ttlMs as %s; read as the integer %d", clip(s), n)
}

// maxSafeInteger is the largest integer a double holds exactly: a ttlMs
// past it is no integer a JavaScript client would read.
const maxSafeInteger = 1<<53 - 1

// clip bounds a server-supplied value quoted in a note: at most 200 bytes,
// cut on a rune boundary, marking the cut (as hostcore/fault.Clip; wire
// imports nothing of the module).
func clip(s string) string {
	n := 200
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// isNumberSyntax reports whether s is a JSON number (which ParseFloat may
// still refuse as out of range).
func isNumberSyntax(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// repairBlocks returns the repaired message for the gathered blocks, or
// nil. Every 2026-07-28 result names its hints, so the usual message is
// passed by a look at each hint's value in place (a plain integer ttlMs, a
// string cacheScope), without joining the blocks; only a message with an
// odd value, or a key across two blocks, is joined and decoded.
func repairBlocks(b *blocks, sse bool) []byte {
	if hintsPlain(b) {
		return nil
	}
	msg, _ := b.join(b.n)
	if !sse {
		return repairHints(msg)
	}
	return repairEvent(msg)
}

// hintsPlain reports whether every ttlMs in b is a plain integer (or null)
// and every cacheScope a string (or null). Outside a JSON string a quote
// is never escaped, so each "ttlMs" found is a key.
func hintsPlain(b *blocks) bool {
	for _, key := range [][]byte{ttlKey, scopeKey} {
		for i, blk := range b.bs {
			if i > 0 && crosses(b.bs[i-1], blk, key) {
				return false
			}
			for rest := blk; ; {
				j := bytes.Index(rest, key)
				if j < 0 {
					break
				}
				rest = rest[j+len(key):]
				if !plainValue(rest, key[1] == 't') {
					return false
				}
			}
		}
	}
	return true
}

// crosses reports whether key starts in a and ends in b.
func crosses(a, b, key []byte) bool {
	edge := append(append([]byte(nil), a[max(0, len(a)-(len(key)-1)):]...), b[:min(len(b), len(key)-1)]...)
	return bytes.Contains(edge, key)
}

// plainValue reports whether after (what follows a key) is a colon and a
// value go-sdk reads: for ttlMs a plain integer or null, for cacheScope a
// string or null. A value cut off by the end of the block is not plain.
func plainValue(after []byte, ttl bool) bool {
	v := bytes.TrimLeft(after, " \t\r\n")
	if len(v) == 0 || v[0] != ':' {
		return len(v) > 0 // a key that is no key ("ttlMs" as a value): nothing to repair
	}
	v = bytes.TrimLeft(v[1:], " \t\r\n")
	if bytes.HasPrefix(v, []byte("null")) {
		return len(v) > 4
	}
	if !ttl {
		return len(v) > 0 && v[0] == '"'
	}
	n := 0
	if n < len(v) && v[n] == '-' {
		n++
	}
	digits := n
	for n < len(v) && v[n] >= '0' && v[n] <= '9' {
		n++
	}
	if n == digits || n == len(v) || n-digits > 18 || v[0] == '-' && n == 2 && v[1] == '0' {
		return false
	}
	return strings.IndexByte(",} \t\r\n]", v[n]) >= 0
}

// repairEvent repairs the JSON of a server-sent event's data lines: they
// become one data line; the other lines are kept.
func repairEvent(event []byte) []byte {
	var data [][]byte
	var other []byte
	for _, line := range bytes.SplitAfter(event, []byte("\n")) {
		l := bytes.TrimRight(line, "\r\n")
		if v, ok := bytes.CutPrefix(l, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(v, []byte(" ")))
		} else if len(l) > 0 {
			other = append(append(other, l...), '\n')
		}
	}
	fixed := repairHints(bytes.Join(data, []byte("\n")))
	if fixed == nil {
		return nil
	}
	out := append(other, "data: "...)
	return append(append(out, fixed...), "\n\n"...)
}
