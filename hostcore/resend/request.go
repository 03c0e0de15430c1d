// Package resend reads a request a tester resends from the console, as it
// was or edited, and checks it before anything is sent: only the session's
// own requests go (the methods a client sends), never a response, a
// notification, or a request that is the server's to send. hostcore's
// Conn.Resend then sends it the way the host sends it itself.
package resend

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/attache/attache/hostcore/fault"
)

// A tester resends a request the host sent, as it was or edited, from the
// console. Only the session's own requests go: the methods a client sends
// (resources/*, tools/*, prompts/*, completion/complete, ping,
// logging/setLevel), never a response, a notification, or a request that
// is the server's to send. Each is checked before anything is sent
// (Parse) and then sent the way the host sends it itself
// (Conn.Resend), so that its effects reach the app: a tools/call passes the
// consent gate, a resources/subscribe is one counted borrow of the
// connection's subscription, a page of a list is stored as the catalog
// stores it.

// ClientRequest is a request a person asks the host to send: a method a
// client sends, and its params as a JSON object, checked by
// Parse.
type ClientRequest struct {
	Method string
	// Params is the params object, without the _meta the session writes
	// itself (the protocol's io.modelcontextprotocol/ keys); "{}" when the
	// request had none.
	Params json.RawMessage
	// Meta is set when the request carried that _meta: the session writes
	// its own instead.
	Meta bool
}

// clientParams are the parameters the host sends with each method, and
// which of them are required. A request with any other is refused: the
// host could not send it as written.
var clientParams = map[string]struct{ allowed, required []string }{
	"ping":                     {},
	"resources/list":           {allowed: []string{"cursor"}},
	"resources/templates/list": {allowed: []string{"cursor"}},
	"resources/read":           {allowed: []string{"uri"}, required: []string{"uri"}},
	"resources/subscribe":      {allowed: []string{"uri"}, required: []string{"uri"}},
	"resources/unsubscribe":    {allowed: []string{"uri"}, required: []string{"uri"}},
	"subscriptions/listen":     {allowed: []string{"notifications"}, required: []string{"notifications"}},
	"tools/list":               {allowed: []string{"cursor"}},
	"tools/call":               {allowed: []string{"name", "arguments"}, required: []string{"name"}},
	"prompts/list":             {allowed: []string{"cursor"}},
	"prompts/get":              {allowed: []string{"name", "arguments"}, required: []string{"name"}},
	"completion/complete":      {allowed: []string{"ref", "argument", "context"}, required: []string{"ref", "argument"}},
	"logging/setLevel":         {allowed: []string{"level"}, required: []string{"level"}},
}

// Methods are the methods the console sends, sorted.
func Methods() []string { return slices.Sorted(maps.Keys(clientParams)) }

// theServers are the requests a server sends to its client.
var theServers = map[string]bool{"sampling/createMessage": true, "elicitation/create": true, "roots/list": true}

// Parse reads a JSON-RPC request as a person wrote or edited
// it and checks that the host may send it: a JSON object with an id (its
// value is not kept: the session numbers its own requests), a method a
// client sends, and params it can send as written. Every error is of kind
// usage and says what to change.
func Parse(raw []byte) (ClientRequest, error) {
	var msg map[string]json.RawMessage
	if err := strictObject(raw, &msg); err != nil {
		return ClientRequest{}, usage("the request is not a JSON object: %s", err)
	}
	if err := checkEnvelope(msg); err != nil {
		return ClientRequest{}, err
	}
	var method string
	if err := json.Unmarshal(msg["method"], &method); err != nil || method == "" {
		return ClientRequest{}, usage("the method must be a non-empty string")
	}
	if err := checkMethod(method); err != nil {
		return ClientRequest{}, err
	}
	return parseParams(method, msg["params"])
}

// checkEnvelope refuses what is not a request: a response, a
// notification, an unknown member.
func checkEnvelope(msg map[string]json.RawMessage) error {
	_, hasResult := msg["result"]
	_, hasError := msg["error"]
	switch _, hasID := msg["id"]; {
	case hasResult || hasError:
		return usage("this is a response: the console sends requests, never a response of its own making")
	case msg["method"] == nil:
		return usage("the request has no method")
	case !hasID || string(msg["id"]) == "null":
		return usage("this is a notification (it has no id): the console sends requests only")
	}
	if v, ok := msg["jsonrpc"]; ok && string(bytes.TrimSpace(v)) != `"2.0"` {
		return usage(`"jsonrpc" must be "2.0", not %s`, clipJSON(v))
	}
	for k := range msg {
		if k != "jsonrpc" && k != "id" && k != "method" && k != "params" {
			return usage("a request has jsonrpc, id, method and params; %q is none of them", k)
		}
	}
	return nil
}

// checkMethod refuses a method the host does not send.
func checkMethod(method string) error {
	switch {
	case strings.HasPrefix(method, "notifications/"):
		return usage("%s is a notification: the console sends requests only", method)
	case theServers[method]:
		return usage("%s is a request a server sends to its client; the host only answers it", method)
	case method == "initialize" || method == "server/discover":
		return usage("%s opens the session: the host sends it when it connects", method)
	}
	if _, ok := clientParams[method]; !ok {
		return usage("%s is not a request the console sends; it sends %s", method, strings.Join(Methods(), ", "))
	}
	return nil
}

// parseParams checks a method's params: an object (or absent), with the
// protocol's own _meta only, the parameters the host sends and those it
// needs.
func parseParams(method string, raw json.RawMessage) (ClientRequest, error) {
	req := ClientRequest{Method: method, Params: json.RawMessage("{}")}
	if len(raw) == 0 || string(raw) == "null" {
		raw = req.Params
	}
	var params map[string]json.RawMessage
	if err := strictObject(raw, &params); err != nil {
		return req, usage("the params of %s must be a JSON object", method)
	}
	if meta, ok := params["_meta"]; ok {
		if err := checkMeta(meta); err != nil {
			return req, err
		}
		delete(params, "_meta")
		req.Meta = true
	}
	spec := clientParams[method]
	for k := range params {
		if !slices.Contains(spec.allowed, k) {
			return req, usage("%s has no parameter %q that the host sends (%s)", method, k, sendsWords(spec.allowed))
		}
	}
	for _, k := range spec.required {
		if _, ok := params[k]; !ok {
			return req, usage("%s needs the parameter %q", method, k)
		}
	}
	req.Params, _ = json.Marshal(params)
	if _, err := req.Decode(); err != nil {
		return req, err
	}
	return req, nil
}

// checkMeta accepts only the _meta the session writes itself.
func checkMeta(raw json.RawMessage) error {
	var meta map[string]json.RawMessage
	if err := strictObject(raw, &meta); err != nil {
		return usage("_meta must be a JSON object")
	}
	for k := range meta {
		if !strings.HasPrefix(k, "io.modelcontextprotocol/") {
			return usage("_meta %q: the console sends only the _meta the session writes itself (io.modelcontextprotocol/…); leave it out", k)
		}
	}
	return nil
}

func sendsWords(allowed []string) string {
	if len(allowed) == 0 {
		return "it sends none"
	}
	return "it sends " + strings.Join(allowed, ", ")
}

// strictObject decodes raw, one JSON value, into the map v points to.
func strictObject(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(raw)))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	if m, ok := v.(*map[string]json.RawMessage); ok && *m == nil {
		return fmt.Errorf("not an object")
	}
	return nil
}

// usage is an error of kind usage: what to change in the request.
func usage(format string, args ...any) error { return fault.New(fault.KindUsage, nil, format, args...) }

// clipJSON shows a value in an error, short.
func clipJSON(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
