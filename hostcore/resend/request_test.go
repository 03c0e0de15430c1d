package resend

import (
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/fault"
)

// A request the console may send passes Parse; anything else
// is refused, with a usage error that says what to change.
func TestParse(t *testing.T) {
	for _, tt := range []struct{ name, raw, want string }{
		{"read", `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"a://b"}}`, ""},
		{"session meta", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, ""},
		{"ping without params", `{"id":"x","method":"ping"}`, ""},
		{"listen", `{"id":1,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["a://b"]}}}`, ""},
		{"response", `{"jsonrpc":"2.0","id":7,"result":{}}`, "never a response"},
		{"error response", `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x"}}`, "never a response"},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notification"},
		{"server's notification", `{"jsonrpc":"2.0","id":3,"method":"notifications/resources/updated","params":{"uri":"a://b"}}`, "notification"},
		{"server's request", `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}`, "a server sends"},
		{"initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`, "opens the session"},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"resources/delete","params":{}}`, "not a request the console sends"},
		{"unknown param", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"a://b","force":true}}`, `no parameter "force"`},
		{"missing param", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{}}`, `needs the parameter "uri"`},
		{"wrong type", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":42}}`, `"uri" of resources/read must be a JSON string`},
		{"foreign meta", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"a://b","_meta":{"progressToken":1}}}`, "_meta \"progressToken\""},
		{"arguments not an object", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":[1]}}`, "must be a JSON object"},
		{"jsonrpc 1", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, `"jsonrpc" must be "2.0"`},
		{"extra member", `{"jsonrpc":"2.0","id":3,"method":"ping","extra":1}`, `"extra" is none of them`},
		{"not an object", `[1,2]`, "not a JSON object"},
		{"not JSON", `{"id":1,`, "not a JSON object"},
		{"two values", `{"id":1,"method":"ping"} {}`, "not a JSON object"},
		{"level", `{"id":1,"method":"logging/setLevel","params":{"level":"loud"}}`, `the level "loud"`},
		{"listen for lists", `{"id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`, "listens for \"toolsListChanged\" itself"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Parse([]byte(tt.raw))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if strings.Contains(string(req.Params), "_meta") {
					t.Errorf("the params keep the session's _meta: %s", req.Params)
				}
				return
			}
			if !errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want a usage error saying %q", err, tt.want)
			}
		})
	}
}
