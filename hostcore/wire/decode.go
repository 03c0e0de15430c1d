package wire

import (
	"bytes"
	"encoding/json"
	"errors"

	fastjson "github.com/segmentio/encoding/json"
)

// The host reads a few fields of messages on its own, beside go-sdk: the
// tap pairs every message by its id and method, and a list page's raw
// priorities tell an absent priority from 0. A page of 100 resources is
// some 17 KB, and encoding/json reads it at about 20 MB/s here (1 ms a
// page, a listing of 50,000 resources paid it twice a page); go-sdk's own
// decoder, segmentio/encoding, reads it some ten times as fast. The host
// uses that decoder for these reads, bounded as go-sdk bounds it.

// maxWireDepth is how deeply a message the host decodes on its own may
// nest, as go-sdk bounds its decoder: it recurses, and a server's
// [[[[... must not exhaust the stack.
const maxWireDepth = 1000

var errTooDeep = errors.New("json: nested too deeply")

// Decode decodes data, a message as it crossed the wire or a part of
// one, into v with go-sdk's decoder. Object keys match fields as
// encoding/json matches them (case-insensitively). A value of the wrong
// type for its field is an error, where encoding/json would skip the field
// and fill in the rest: a caller that wants those rest decodes again with
// DecodeLenient.
func Decode(data []byte, v any) error {
	if deeperThan(data, maxWireDepth) {
		return errTooDeep
	}
	rest, err := fastjson.Parse(data, v, 0)
	if err == nil && len(rest) > 0 {
		err = errors.New("json: data after the value")
	}
	return err
}

// DecodeLenient is encoding/json's Unmarshal: slower, but it fills in what
// it can of a value with fields of the wrong type. It is the second try
// after Decode, for odd messages only.
func DecodeLenient(data []byte, v any) error { return json.Unmarshal(data, v) }

// deeperThan reports whether data nests objects and arrays more than max
// levels. Counting the opening brackets (a vectorised count) settles most
// messages at once: a page of 100 resources has a few hundred. Only a
// message with more is walked, skipping strings.
func deeperThan(data []byte, max int) bool {
	if bytes.Count(data, []byte{'{'})+bytes.Count(data, []byte{'['}) <= max {
		return false
	}
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if depth++; depth > max {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}
