package wire

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestGateSplitsAnyChunking sends a stream of messages whose strings hold
// brackets, quotes and escapes through a gate, read whole, a byte at a
// time and in halves: each way, the reader gets the stream unchanged and
// the tap gets each message whole, however the reads cut it.
func TestGateSplitsAnyChunking(t *testing.T) {
	big := `{"id":1,"result":{"text":"` + strings.Repeat(`a{b}[c]\"d\\`, 700) + `"}}`
	msgs := []string{
		big,
		big, // the size of the last one: shared with the tap
		`{"id":2,"result":{"s":"}]\\","t":"\\\""}}`, // a small one after a big one: copied, not shared
		`[{"id":3,"method":"x"}]`,
		big,
		`{"id":4,"result":{}}`,
	}
	stream := strings.Join(msgs, "\n") + "\n"
	reads := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"halves":   iotest.HalfReader,
	}
	for name, wrap := range reads {
		t.Run(name, func(t *testing.T) {
			var got []string
			g := NewGate(wrap(strings.NewReader(stream)), 1<<20, &jsonSplit{})
			shared := 0
			g.Record = func(msg []byte, truncated bool) {
				if truncated {
					t.Errorf("message %d truncated", len(got))
				}
				if blk := g.cur.bs[0]; &msg[0] == &blk[0] && cap(blk) > 2*len(msg) {
					t.Errorf("message %d: the tap keeps a block of %d bytes for %d", len(got), cap(blk), len(msg))
				}
				if &msg[0] == &g.cur.bs[0][0] {
					shared++
				}
				got = append(got, string(msg))
			}
			out, err := io.ReadAll(iotest.HalfReader(g))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, []byte(stream)) {
				t.Errorf("the reader got %d bytes that differ from the %d sent", len(out), len(stream))
			}
			if shared == 0 {
				t.Error("every message was copied for the tap; a message the size of the last one shares its block")
			}
			if diff := cmp.Diff(msgs, got); diff != "" {
				t.Errorf("recorded messages (-want +got):\n%s", diff)
			}
		})
	}
}
