package wire

import (
	"bytes"
	"unicode/utf8"
)

// The tap reads the envelope of every message, and a list page of 100
// resources is some 17 KB of which the envelope is a few bytes: decoding
// the whole message into the envelope (Decode skips the result field by
// field) was the tap's whole cost of a listing, some 40 ms of CPU in a
// listing of 50,000 resources. readEnvelope reads only the top-level
// object's keys and the values the envelope keeps, and jumps over the
// other values: over a string with a vectorised search for its closing
// quote, which is most of a page.

// readEnvelope reads into env what Decode would of a message: its id,
// method, error, and params' uri and cursor. It does not decode the
// values it skips, so it does not check their syntax beyond their
// brackets and strings (a message the gate let through has those
// balanced). ok is false for what it does not read as Decode would: not
// an object, a key, method, uri or cursor holding an escape, a value of
// the wrong type, a kept string with a control character or not UTF-8, a
// message cut short or nesting as deep as Decode
// refuses (maxWireDepth). The caller then decodes it, and
// env holds nothing it may keep.
func readEnvelope(data []byte, env *envelope) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i, ok := eachKey(data, i, func(key []byte, v int) (int, bool) {
		switch {
		case bytes.EqualFold(key, []byte("id")):
			end, ok := skipValue(data, v)
			env.ID = data[v:end:end]
			return end, ok
		case bytes.EqualFold(key, []byte("error")):
			end, ok := skipValue(data, v)
			env.Error = data[v:end:end]
			return end, ok
		case bytes.EqualFold(key, []byte("method")):
			return plainString(data, v, &env.Method)
		case bytes.EqualFold(key, []byte("params")):
			return readParams(data, v, env)
		}
		return skipValue(data, v)
	})
	return ok && skipSpace(data, i) == len(data)
}

// readParams reads the uri and cursor of the params object at v (null is
// no params), and returns the offset past it.
func readParams(data []byte, v int, env *envelope) (int, bool) {
	if bytes.HasPrefix(data[v:], []byte("null")) {
		return skipValue(data, v)
	}
	if data[v] != '{' {
		return v, false // Decode fails on params that are not an object
	}
	return eachKey(data, v, func(key []byte, v int) (int, bool) {
		switch {
		case bytes.EqualFold(key, []byte("uri")):
			return plainString(data, v, &env.Params.URI)
		case bytes.EqualFold(key, []byte("cursor")):
			return plainString(data, v, &env.Params.Cursor)
		}
		return skipValue(data, v)
	})
}

// eachKey walks the object that opens at data[i], calling f with each key
// and the offset of its value; f returns the offset past the value. It
// returns the offset past the object.
func eachKey(data []byte, i int, f func(key []byte, v int) (int, bool)) (int, bool) {
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for i < len(data) {
		if i >= len(data) || data[i] != '"' {
			return i, false
		}
		end, ok := skipString(data, i)
		key := data[i+1 : max(i+1, end-1)]
		if !ok || !plain(key) {
			return i, false
		}
		if i = skipSpace(data, end); i >= len(data) || data[i] != ':' {
			return i, false
		}
		if i = skipSpace(data, i+1); i >= len(data) {
			return i, false
		}
		if i, ok = f(key, i); !ok {
			return i, false
		}
		if i = skipSpace(data, i); i >= len(data) {
			return i, false
		}
		switch data[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(data, i+1)
		default:
			return i, false
		}
	}
	return i, false
}

// plainString reads the string at data[i] into s, when it holds no
// escape, and returns the offset past it.
func plainString(data []byte, i int, s *string) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return i, false
	}
	end, ok := skipString(data, i)
	if !ok || !plain(data[i+1:end-1]) {
		return end, false
	}
	*s = string(data[i+1 : end-1])
	return end, true
}

// plain reports whether a string's bytes are what Decode keeps as they
// are: no escape, no control character (which Decode refuses), valid
// UTF-8 (Decode would put U+FFFD in place of what is not).
func plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.Valid(b)
}

// skipString returns the offset past the string that opens at data[i].
func skipString(data []byte, i int) (int, bool) {
	for j := i + 1; ; {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data), false
		}
		j += k
		backslashes := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			backslashes++
		}
		j++
		if backslashes%2 == 0 {
			return j, true
		}
	}
}

// skipValue returns the offset past the value at data[i]: a string, an
// object or array (matching its brackets, skipping its strings), or a
// number or literal (up to the next delimiter).
func skipValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return i, false
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, ok := skipString(data, j)
				if !ok {
					return end, false
				}
				j = end - 1
			case '{', '[':
				if depth++; depth >= maxWireDepth {
					return j, false // as deep as Decode refuses: it reads it, or not
				}
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(data), false
	case '}', ']', ',', ':':
		return i, false
	}
	j := i
	for j < len(data) && !isDelimiter(data[j]) {
		j++
	}
	return j, j > i
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ':', '"', '{', '[', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
