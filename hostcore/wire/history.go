package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// RPCKind is what a JSON-RPC message is.
type RPCKind string

// Kinds of message. A line a server wrote to stdout that is not JSON is
// Unparsed.
const (
	KindRequest      RPCKind = "request"
	KindResponse     RPCKind = "response"
	KindError        RPCKind = "error" // a response with an error
	KindNotification RPCKind = "notification"
	KindUnparsed     RPCKind = "unparsed"
)

// RPCEntry is one message of a connection's history, as a tester's console
// shows it: which way it went, what it is, and for a response how long its
// request waited.
type RPCEntry struct {
	TapMessage
	Kind RPCKind
	// Method is the request's method, for a response too (taken from its
	// request), when the record still holds the request.
	Method string
	// ID is the JSON-RPC id as written on the wire ("" for a notification).
	ID string
	// Elapsed is, for a response, the time since its request was sent.
	Elapsed time.Duration
	// Pinned is set for a message a tester pinned (Tap.Pin): it outlives
	// the record's bounds.
	Pinned bool
}

// History returns the recorded messages, oldest first, each classified and
// each response paired with its request. Dropped is how many older
// messages the tap let go to stay within its bounds (the last 4096
// messages, and 4 MiB beyond the newest); pinned messages are never let
// go, and come first when they are older than the rest.
func (t *Tap) History() (entries []RPCEntry, dropped int) {
	if t == nil {
		return nil, 0
	}
	t.mu.Lock()
	msgs := t.all()
	dropped = t.dropped
	pinned := t.pins.set()
	t.mu.Unlock()
	type pending struct {
		method string
		at     time.Time
	}
	requests := map[string]pending{} // key: direction of the request + id
	entries = make([]RPCEntry, len(msgs))
	for i, m := range msgs {
		e := RPCEntry{TapMessage: m, Method: m.env.Method, ID: string(m.env.ID), Pinned: pinned[m.Seq]}
		if e.ID == "null" {
			e.ID = ""
		}
		switch {
		case !json.Valid(bytes.TrimSpace(m.Raw)) && !m.Truncated:
			e.Kind = KindUnparsed
		case m.env.Method != "" && e.ID != "":
			e.Kind = KindRequest
			requests[string(m.Dir)+e.ID] = pending{m.env.Method, m.At}
		case m.env.Method != "":
			e.Kind = KindNotification
		default:
			e.Kind = KindResponse
			if len(m.env.Error) > 0 && string(m.env.Error) != "null" {
				e.Kind = KindError
			}
			key := string(Sent) + e.ID // a response answers a request sent the other way
			if m.Dir == Sent {
				key = string(Received) + e.ID
			}
			if req, ok := requests[key]; ok {
				e.Method, e.Elapsed = req.method, m.At.Sub(req.at)
				delete(requests, key)
			}
		}
		entries[i] = e
	}
	return entries, dropped
}

// exportedMessage is one message in an exported exchange.
type exportedMessage struct {
	At        time.Time       `json:"at"`
	Dir       Direction       `json:"direction"`
	Kind      RPCKind         `json:"kind"`
	Method    string          `json:"method,omitempty"`
	ID        json.RawMessage `json:"id,omitempty"`
	ElapsedMS *float64        `json:"elapsedMs,omitempty"`
	Truncated bool            `json:"truncated,omitempty"`
	Message   json.RawMessage `json:"message,omitempty"`
	Text      string          `json:"text,omitempty"` // a message that is not JSON, or was cut
}

// ExportedExchange is the header of an exported session: which connection,
// when, and how much the record had let go before.
type ExportedExchange struct {
	Server   string    `json:"server"`
	Account  string    `json:"account"`
	Exported time.Time `json:"exported"`
	Dropped  int       `json:"droppedBefore,omitempty"`
}

// WriteExchange writes entries as one indented JSON document: the header's
// fields, then "messages", each with its direction, kind, method, id, time
// and (for a response) elapsed milliseconds, and the message itself as JSON
// (as text when it is not JSON or was cut). A tester can keep it, diff it
// or attach it to a bug report.
func WriteExchange(w io.Writer, head ExportedExchange, entries []RPCEntry) error {
	doc := struct {
		ExportedExchange
		Messages []exportedMessage `json:"messages"`
	}{ExportedExchange: head, Messages: make([]exportedMessage, 0, len(entries))}
	for _, e := range entries {
		m := exportedMessage{At: e.At, Dir: e.Dir, Kind: e.Kind, Method: e.Method, Truncated: e.Truncated}
		if e.ID != "" {
			m.ID = json.RawMessage(e.ID)
		}
		if e.Kind == KindResponse || e.Kind == KindError {
			if ms := float64(e.Elapsed.Microseconds()) / 1000; e.Elapsed > 0 {
				m.ElapsedMS = &ms
			}
		}
		if !e.Truncated && json.Valid(e.Raw) {
			m.Message = json.RawMessage(e.Raw)
		} else {
			m.Text = string(e.Raw)
		}
		doc.Messages = append(doc.Messages, m)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing the exchange: %w", err)
	}
	return nil
}
