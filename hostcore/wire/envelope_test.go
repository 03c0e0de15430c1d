package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// envelopeCases are messages whose envelope readEnvelope reads, each as
// Decode reads it.
var envelopeCases = []string{
	`{"jsonrpc":"2.0","id":7,"result":{"resources":[{"uri":"test://a","name":"a","annotations":{"priority":0.5}}],"nextCursor":"c2"}}`,
	`{"jsonrpc":"2.0","id":"x-1","method":"resources/list","params":{"cursor":"c2","_meta":{"k":[1,{"uri":"not this"}]}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///a b.txt"}}`,
	`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://u"}}`,
	`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad \"cursor\" {"}}`,
	`{"jsonrpc":"2.0","id":null,"error":null}`,
	`{"jsonrpc":"2.0","id":5,"result":{"text":"quotes \\\" and backslashes \\\\","deep":[[[["]"]]]]}}`,
	` { "ID" : 8 , "Method" : "ping" , "params" : null } `,
	`{"id":9,"result":{},"id":10}`,
	`{"id":-1.5e3,"result":[true,false,null]}`,
	`{}`,
}

func TestReadEnvelopeReadsAsDecodeDoes(t *testing.T) {
	for _, msg := range envelopeCases {
		var want, got envelope
		if err := Decode([]byte(msg), &want); err != nil {
			t.Fatalf("Decode(%s): %v", msg, err)
		}
		if !readEnvelope([]byte(msg), &got) {
			t.Errorf("readEnvelope(%s) refused it", msg)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("readEnvelope(%s) differs from Decode (-Decode +readEnvelope):\n%s", msg, diff)
		}
	}
}

// What readEnvelope refuses, Decode reads (or fails on): an escape in a
// value it keeps, a value of the wrong type, a message cut short, bytes
// that are not an object.
func TestReadEnvelopeRefusesWhatItCannotRead(t *testing.T) {
	for _, msg := range []string{
		`{"id":1,"method":"resources\/list"}`,
		`{"id":1,"params":{"uri":"a\u0020b"}}`,
		`{"id":1,"method":3}`,
		`{"id":1,"params":[1]}`,
		`{"id":1,"result":{"resources":[`,
		`{"id":1,"result":"open`,
		`{"id":1,}`,
		`{"id" 1}`,
		`[{"id":1}]`,
		`not json`,
		`{"id":1} trailing`,
		`{"\u0069d":1}`,
		"{\"id\":1,\"method\":\"m\xcb\"}",
		"{\"id\":1,\"method\":\"m\tn\"}",
	} {
		if readEnvelope([]byte(msg), &envelope{}) {
			t.Errorf("readEnvelope(%s) read it; want it refused, for Decode", msg)
		}
	}
}

// A tap pairs a long listing page by the envelope alone, as before.
func TestTapPairsAPageByItsEnvelope(t *testing.T) {
	tap := NewTap(nil)
	page := `{"jsonrpc":"2.0","id":12,"result":{"resources":[` + strings.Repeat(`{"uri":"test://r","name":"\"id\":99"},`, 200) + `{"uri":"test://z","name":"z"}],"nextCursor":"c3"}}`
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":12,"method":"resources/list","params":{"cursor":"c2"}}`))
	tap.Record(Received, []byte(page))
	ex, ok := tap.Find("resources/list", "c2")
	if !ok || string(ex.Response) != page {
		t.Fatalf("Find(resources/list, c2) = %.60q, %v; want the page", ex.Response, ok)
	}
}

// FuzzReadEnvelope: whatever readEnvelope reads, Decode reads alike.
func FuzzReadEnvelope(f *testing.F) {
	for _, msg := range envelopeCases {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		var got envelope
		if !readEnvelope([]byte(msg), &got) {
			return
		}
		var want envelope
		if Decode([]byte(msg), &want) != nil {
			return // syntax inside a skipped value: see readEnvelope
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("readEnvelope(%q) differs from Decode (-Decode +readEnvelope):\n%s", msg, diff)
		}
	})
}

// listPage is a resources/list reply of 100 resources, as mcptestd's paged
// mode sends them.
func listPage() []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":41,"result":{"nextCursor":"NDEwMA==","resources":[`)
	for i := range 100 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"annotations":{"lastModified":"2026-01-03T20:%02d:00Z","priority":0.%d},"mimeType":"text/plain","name":"resource-%d","size":15,"uri":"test://paged/resources/%d"}`, i%60, i%5, 4000+i, 4000+i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// BenchmarkEnvelope reads a list page's envelope as the tap does
// (readEnvelope), and as it did (Decode).
func BenchmarkEnvelope(b *testing.B) {
	page := listPage()
	for _, bb := range []struct {
		name string
		read func([]byte, *envelope) bool
	}{
		{"readEnvelope", readEnvelope},
		{"Decode", func(p []byte, env *envelope) bool { return Decode(p, env) == nil }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				var env envelope
				if !bb.read(page, &env) || string(env.ID) != "41" {
					b.Fatal("the envelope was not read")
				}
			}
		})
	}
}
