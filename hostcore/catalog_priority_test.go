package hostcore

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/wire"
)

// A listed resource's priority is the one the server sent: 0 when it sent
// 0, absent when it sent none, though go-sdk decodes both as 0. The page
// is decoded a second time only when it may name a 0; either way the
// priorities come out the same.
func TestListedPriorities(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name  string
		items string
		want  []*float64
	}{
		{"zeros left out, as go-sdk servers send them",
			`{"uri":"a","annotations":{"priority":0.25}},{"uri":"b","annotations":{"lastModified":"2026-01-01T00:00:00Z"}},{"uri":"c"}`,
			[]*float64{f(0.25), nil, nil}},
		{"a zero sent",
			`{"uri":"a","annotations":{"priority":0.25}},{"uri":"b","annotations":{"priority":0}},{"uri":"c","annotations":{}}`,
			[]*float64{f(0.25), f(0), nil}},
		{"only zeros sent",
			`{"uri":"a","annotations":{"priority":0}},{"uri":"b","annotations":{"priority":0.0}}`,
			[]*float64{f(0), f(0)}},
		{"a priority named outside the annotations",
			`{"uri":"a","annotations":{"priority":1},"_meta":{"priority":"high"}},{"uri":"b","annotations":{}}`,
			[]*float64{f(1), nil}},
		{"no priority anywhere",
			`{"uri":"a"},{"uri":"b","annotations":{"audience":["user"]}}`,
			[]*float64{nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"result":{"resources":[%s]}}`, tt.items)
			var decoded struct{ Result mcp.ListResourcesResult } // as go-sdk decodes the reply
			if err := json.Unmarshal([]byte(reply), &decoded); err != nil {
				t.Fatal(err)
			}
			tap := wire.NewTap(nil)
			tap.Record(wire.Sent, []byte(`{"jsonrpc":"2.0","id":9,"method":"resources/list","params":{"cursor":"p2"}}`))
			tap.Record(wire.Received, []byte(reply))
			l := &lister[*mcp.Resource, Resource]{c: &Conn{tap: tap}, listKind: resourceListing}
			items := decoded.Result.Resources
			prios := l.priorities(items, "p2")
			var got []*float64
			for i, r := range items {
				var prio *float64
				if i < len(prios) {
					prio = prios[i]
				}
				got = append(got, l.convert(r, prio).Annotations.Priority)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("priorities (-want +got):\n%s", diff)
			}
		})
	}
}
