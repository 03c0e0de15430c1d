package hostcore

import (
	"encoding/json"
	"fmt"

	"github.com/attache/attache/hostcore/wire"
)

// The hints a server sent, read as it sent them: the gate repaired what
// go-sdk could not read (hostcore/wire's hintrepair.go), and the host says
// what it made of them.

// readHints reads a result's hints from the reply as the server sent it:
// the TTL, whether ttlMs was sent, and what the host made of a ttlMs or a
// cacheScope of the wrong form. ok is false when the reply cannot tell.
func readHints(ttl json.RawMessage, scope json.RawMessage) (h CacheHints, ok bool) {
	ms, note := wire.ReadTTL(ttl)
	h.TTLSent = ttl != nil && string(ttl) != "null"
	if ms != nil {
		h.TTLMs, h.TTL = *ms, ttlDuration(*ms)
	} else {
		h.TTLSent = false
	}
	h.Note = note
	if scope != nil && string(scope) != "null" {
		if !wire.IsJSONString(scope) {
			h.Note = joinNotes(h.Note, fmt.Sprintf("the server's cacheScope %s is not a string; treated as absent", clip(string(scope))))
		} else {
			json.Unmarshal(scope, &h.Scope)
		}
	}
	return h, true
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
