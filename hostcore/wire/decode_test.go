package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nested is a JSON value of depth levels of arrays around 1.
func nested(depth int) string { return strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) }

func TestDeeperThan(t *testing.T) {
	tests := []struct {
		name string
		data string
		max  int
		want bool
	}{
		{"flat", `{"a":1}`, 1, false},
		{"at the bound", nested(3), 3, false},
		{"past the bound", nested(4), 3, true},
		{"brackets in strings do not nest", `{"a":"[[[[{{{{"}`, 1, false},
		{"an escaped quote stays in the string", `{"a":"\"[[[["}`, 1, false},
		{"many siblings, shallow", `[` + strings.Repeat(`{},`, 2000) + `{}]`, 2, false},
		{"many siblings, one deep", `[` + strings.Repeat(`{},`, 2000) + nested(5) + `]`, 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := deeperThan([]byte(tt.data), tt.max); got != tt.want {
				t.Errorf("deeperThan(%.40s…, %d) = %v; want %v", tt.data, tt.max, got, tt.want)
			}
		})
	}
}

// The tap reads each message's envelope with the fast decoder, and an odd
// message as encoding/json reads it: a field of the wrong type, or
// nesting past the fast decoder's bound, still leaves what can be read.
// Nothing crashes, however deep a message nests.
func TestTapEnvelope(t *testing.T) {
	tests := []struct {
		name       string
		msg        string
		wantMethod string
		wantID     string
		wantURI    string
		wantCursor string
	}{
		{"request", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x://a"}}`, "resources/read", "3", "x://a", ""},
		{"list request", `{"jsonrpc":"2.0","id":"c","method":"resources/list","params":{"cursor":"p2"}}`, "resources/list", `"c"`, "", "p2"},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"x://a","text":"{\"method\":\"no\"}"}]}}`, "", "3", "", ""},
		{"keys in another case, as encoding/json matches them", `{"jsonrpc":"2.0","ID":4,"Method":"ping"}`, "ping", "4", "", ""},
		{"params by position", `{"jsonrpc":"2.0","id":5,"method":"m","params":["x://a"]}`, "m", "5", "", ""},
		{"a uri that is not a string", `{"jsonrpc":"2.0","id":6,"method":"m","params":{"uri":7,"cursor":"c"}}`, "m", "6", "", "c"},
		{"deeper than the fast decoder goes", `{"jsonrpc":"2.0","id":7,"method":"m","params":{"x":` + nested(5000) + `}}`, "m", "7", "", ""},
		{"deeper than encoding/json goes", `{"jsonrpc":"2.0","id":8,"method":"m","params":{"x":` + nested(200_000) + `}}`, "", "", "", ""},
		{"not JSON", `Server ready on stdio`, "", "", "", ""},
		{"cut short", `{"jsonrpc":"2.0","id":9,"method":"m"`, "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tap := NewTap(nil)
			tap.Record(Received, []byte(tt.msg))
			env := tap.Messages()[0].env
			got := []string{env.Method, string(env.ID), env.Params.URI, env.Params.Cursor}
			if diff := cmp.Diff([]string{tt.wantMethod, tt.wantID, tt.wantURI, tt.wantCursor}, got); diff != "" {
				t.Errorf("method, id, uri, cursor (-want +got):\n%s", diff)
			}
		})
	}
}
