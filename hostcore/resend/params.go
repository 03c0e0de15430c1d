package resend

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/attache/attache/hostcore/consent"
)

// Params are the params of every method the console sends, as the host
// reads them (Parse has refused any other).
type Params struct {
	Cursor    string          `json:"cursor"`
	URI       string          `json:"uri"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Ref       *struct {
		Type string `json:"type"`
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"ref"`
	Argument *struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
	Level         string                     `json:"level"`
	Notifications map[string]json.RawMessage `json:"notifications"`
}

// Decode reads the request's params, and checks what their types alone do
// not say.
func (r ClientRequest) Decode() (Params, error) {
	var p Params
	if err := json.Unmarshal(r.Params, &p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return p, usage("the parameter %q of %s must be a JSON %s, not a %s", te.Field, r.Method, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return p, usage("the params of %s: %v", r.Method, err)
	}
	return p, p.check(r.Method)
}

// jsonKind names a Go kind as JSON does.
func jsonKind(k string) string {
	switch k {
	case "map", "struct":
		return "object"
	case "slice":
		return "array"
	}
	return k
}

// loggingLevels are the levels of logging/setLevel.
var loggingLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// check refuses params that their types alone let through.
func (p Params) check(method string) error {
	switch method {
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if p.URI == "" {
			return usage("%s needs a uri", method)
		}
	case "tools/call", "prompts/get":
		if p.Name == "" {
			return usage("%s needs a name", method)
		}
		if method == "tools/call" {
			if _, err := consent.ParseArguments(p.Arguments); err != nil {
				return usage("the arguments of tools/call must be a JSON object (%v)", err)
			}
		} else if err := json.Unmarshal(OrEmpty(p.Arguments), new(map[string]string)); err != nil {
			return usage("the arguments of prompts/get must be an object of strings")
		}
	case "completion/complete":
		if p.Ref == nil || (p.Ref.Type != "ref/resource" && p.Ref.Type != "ref/prompt") {
			return usage(`completion/complete needs a ref of type "ref/resource" or "ref/prompt"`)
		}
		if p.Argument == nil || p.Argument.Name == "" {
			return usage("completion/complete needs an argument with a name")
		}
	case "logging/setLevel":
		if !slices.Contains(loggingLevels, p.Level) {
			return usage("logging/setLevel: the level %q is none of %s", p.Level, strings.Join(loggingLevels, ", "))
		}
	case "subscriptions/listen":
		_, err := p.ListenURIs()
		return err
	}
	return nil
}

// OrEmpty is raw, or an empty object when raw is absent or null.
func OrEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

// ListenURIs are the resources a subscriptions/listen asks for: the only
// part of it the console sends (the host listens for list changes itself).
func (p Params) ListenURIs() ([]string, error) {
	var uris []string
	for k, v := range p.Notifications {
		if k != "resourceSubscriptions" {
			return nil, usage("subscriptions/listen: the host listens for %q itself; the console sends resourceSubscriptions only", k)
		}
		if err := json.Unmarshal(v, &uris); err != nil {
			return nil, usage("subscriptions/listen: resourceSubscriptions must be an array of URIs")
		}
	}
	if len(uris) == 0 || slices.Contains(uris, "") {
		return nil, usage("subscriptions/listen needs notifications.resourceSubscriptions, the URIs to subscribe to")
	}
	return uris, nil
}

// Result says what hostcore's Conn.Resend sent.
type Result struct {
	Method string
	// ID is the request's JSON-RPC id as the session sent it (the next of
	// its own), and Seq its message in the connection's record; "" and 0
	// when nothing went on the wire (Note says why).
	ID  string
	Seq uint64
	// Note says what the host made of it: a page's cursor, a subscription
	// already held, the era's way of unsubscribing.
	Note string
	// Decision is the consent gate's, for a tools/call.
	Decision *consent.ToolDecision
}

// Options configure hostcore's Conn.Resend. The zero value is usable.
type Options struct {
	// Confirm asks the person to confirm a tools/call of a tool the server
	// says is destructive; nil means no one can, and such a call is not
	// run. Any other tool runs: the person pressing Resend asked for it.
	Confirm consent.AskFunc
}
