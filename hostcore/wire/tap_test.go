package wire

import (
	"strings"
	"testing"
)

// TestFramerChunking feeds the same stream in every chunk size and expects
// the same messages: framing must not depend on how reads split the bytes.
func TestFramerChunking(t *testing.T) {
	stream := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://a}\"{"}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"x://a}\"{","text":"[{]}"}]}}` + "\n" +
		"this is not json\n" +
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"x://a"}}`
	var want []string
	for size := 1; size <= len(stream); size++ {
		var got []string
		f := &Framer{emit: func(b []byte) { got = append(got, string(b)) }}
		for i := 0; i < len(stream); i += size {
			f.Write([]byte(stream[i:min(i+size, len(stream))]))
		}
		if size == 1 {
			want = got
			if len(want) != 4 || want[2] != "this is not json" {
				t.Fatalf("messages = %q", want)
			}
			continue
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("chunk size %d gave %q; want %q", size, got, want)
		}
	}
}

func TestTapFindPairsByID(t *testing.T) {
	tap := NewTap(nil)
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"x://a"}}`))
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"x://b"}}`))
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","id":8,"result":{"b":1}}`))
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","id":7,"result":{"a":1}}`))
	ex, ok := tap.Find("resources/read", "x://a")
	if !ok || !strings.Contains(string(ex.Response), `"a":1`) || !strings.Contains(string(ex.Request), `"id":7`) {
		t.Errorf("Find(x://a) = %s / %s, %v", ex.Request, ex.Response, ok)
	}
	if _, ok := tap.Find("resources/list", "x://a"); ok {
		t.Error("Find matched another method")
	}
	for i := 0; i < tapCapacity+10; i++ { // the ring drops the oldest
		tap.Record(Received, []byte(`{"jsonrpc":"2.0","method":"n"}`))
	}
	if _, ok := tap.Find("resources/read", "x://a"); ok {
		t.Error("the ring kept more than its capacity")
	}
	if n := len(tap.Messages()); n != tapCapacity {
		t.Errorf("Messages() = %d; want %d", n, tapCapacity)
	}
}

// History pairs a response with its request by id and direction, tells an
// error and a notification apart, and counts what the bounds let go.
func TestTapHistory(t *testing.T) {
	tap := NewTap(nil)
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x://a"}}`))
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","id":1,"method":"roots/list"}`)) // the server's own request, same id
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}`))
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"gone"}}`))
	got, dropped := tap.History()
	var kinds []string
	for _, e := range got {
		kinds = append(kinds, string(e.Dir)+" "+string(e.Kind)+" "+e.Method)
	}
	want := []string{"sent request resources/read", "received request roots/list", "received notification notifications/message",
		"sent response roots/list", "received error resources/read"}
	if strings.Join(kinds, "|") != strings.Join(want, "|") || dropped != 0 {
		t.Errorf("History() = %q, %d dropped; want %q", kinds, dropped, want)
	}
	for range tapCapacity {
		tap.Record(Received, []byte(`{"jsonrpc":"2.0","method":"n"}`))
	}
	if got, dropped := tap.History(); len(got) != tapCapacity || dropped != 5 {
		t.Errorf("after %d more messages History() holds %d and dropped %d; want %d and 5", tapCapacity, len(got), dropped, tapCapacity)
	}
}
