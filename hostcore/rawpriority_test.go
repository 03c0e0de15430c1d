package hostcore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/wire"
)

// rawPriorities tells an absent priority from 0 in resources and in
// templates, and gives up (nil) on a page it cannot read.
func TestRawPriorities(t *testing.T) {
	page := func(field, items string) wire.Exchange {
		return wire.Exchange{Response: []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{%q:[%s],"nextCursor":"n"}}`, field, items))}
	}
	items := `{"uri":"a","annotations":{"priority":0}},{"uri":"b"},{"uri":"c","annotations":{"priority":0.5,"audience":["user"]}},{"uri":"d","annotations":{}}`
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name  string
		raw   wire.Exchange
		field string
		want  []*float64
	}{
		{"resources", page("resources", items), "resources", []*float64{f(0), nil, f(0.5), nil}},
		{"templates", page("resourceTemplates", items), "resourceTemplates", []*float64{f(0), nil, f(0.5), nil}},
		{"the other list's field", page("resourceTemplates", items), "resources", []*float64{}},
		{"no priority anywhere", page("resources", `{"uri":"a"},{"uri":"b"}`), "resources", nil},
		{"a priority that is not a number", page("resources", `{"uri":"a","annotations":{"priority":"high"}}`), "resources", nil},
		{"cut by the tap", wire.Exchange{Response: page("resources", items).Response, Truncated: true}, "resources", nil},
		{"nested past the bound", page("resources", `{"uri":"a","annotations":{"priority":1},"_meta":{"x":`+nested(5000)+`}}`), "resources", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rawPriorities(tt.raw, tt.field)); diff != "" {
				t.Errorf("rawPriorities (-want +got):\n%s", diff)
			}
		})
	}
}

func nested(depth int) string { return strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) }
