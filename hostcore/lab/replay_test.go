package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The example line, and what a missing attached key means.
func TestParseSchema(t *testing.T) {
	in := `{"session":"s1","turn":3,"at":"2026-11-30T10:00:00Z","user":"…","relevant":["threengram://memory/m00qgwdvbb"],"attached":["threengram://memory/m00qgwdvbb"],"toolCalls":[{"name":"get_memories","arguments":{"ids":["m00qgwdvbb"]}}]}

{"session":"s1","turn":4,"at":"2026-11-30T10:01:00Z","user":"and then?"}
{"session":"s2","turn":1,"at":"2026-11-30T10:02:00Z","user":"new","relevant":[]}
{"session":"s1","turn":5,"at":"2026-11-30T10:03:00Z","user":"drop it","attached":[]}
`
	turns, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	m := "threengram://memory/m00qgwdvbb"
	got := [][]string{turns[0].Attached, turns[1].Attached, turns[2].Attached, turns[3].Attached}
	want := [][]string{{m}, {m}, {}, {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attached (-want +got):\n%s", diff)
	}
	if turns[0].ToolCalls[0].Name != "get_memories" || string(turns[0].ToolCalls[0].Arguments) != `{"ids":["m00qgwdvbb"]}` {
		t.Errorf("tool call: %+v", turns[0].ToolCalls[0])
	}
	if turns[1].Relevant == nil {
		t.Error("a missing relevant key should read as an empty list")
	}
	// Written back, every line says its attached set, and reads the same.
	var buf bytes.Buffer
	if err := Write(&buf, turns); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	again, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(turns, again); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, line := range strings.Split(strings.TrimSpace(written), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatal(err)
		}
		if _, ok := raw["attached"]; !ok {
			t.Errorf("written without attached: %s", line)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	ok := `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","user":"x"}`
	tests := []struct{ name, in, want string }{
		{"empty", "\n\n", "no turn"},
		{"not JSON", ok + "\n{oops", "line 2: not a replay turn"},
		{"unknown key", `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","relevnt":[]}`, `unknown field "relevnt"`},
		{"no session", `{"turn":1,"at":"2026-11-30T10:00:00Z"}`, `"session" is missing`},
		{"turn zero", `{"session":"s","turn":0,"at":"2026-11-30T10:00:00Z"}`, `"turn" must be a positive`},
		{"no time", `{"session":"s","turn":1}`, `"at" is missing`},
		{"bad time", `{"session":"s","turn":1,"at":"yesterday"}`, "not a replay turn"},
		{"empty uri", `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","relevant":[""]}`, "an empty URI"},
		{"tool without name", `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","toolCalls":[{"arguments":{}}]}`, "has no name"},
		{"arguments not an object", `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","toolCalls":[{"name":"x","arguments":[1]}]}`, "must be a JSON object"},
		{"two values", ok + ok, "more than one JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	_, err := Parse(strings.NewReader(ok + "\n" + `{"session":""}`))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("want a LineError on line 2, got %v", err)
	}
}

// amplifying is a replay whose first turn attaches n resources and whose
// other turns inherit them.
func amplifying(turns, n int) string {
	var b strings.Builder
	uris := make([]string, n)
	for i := range uris {
		uris[i] = fmt.Sprintf("threengram://memory/x%07d", i)
	}
	first, _ := json.Marshal(map[string]any{"session": "s1", "turn": 1, "at": "2026-11-30T10:00:00Z", "attached": uris})
	b.Write(first)
	for i := 2; i <= turns; i++ {
		fmt.Fprintf(&b, "\n"+`{"session":"s1","turn":%d,"at":"2026-11-30T10:00:00Z"}`, i)
	}
	return b.String()
}

// Turns that inherit a set share it: memory follows the file, not the
// turns times the set (50,000 turns inheriting 1,000 URIs passed 1 GB).
// A caller's append to one turn's set leaves the others alone.
func TestParseSharesInheritedSets(t *testing.T) {
	turns, err := Parse(strings.NewReader(amplifying(1000, 1000)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range turns[1:] {
		if len(tt.Attached) != 1000 || &tt.Attached[0] != &turns[0].Attached[0] {
			t.Fatalf("turn %d holds a set of its own (%d URIs); want the first turn's, shared", tt.Turn, len(tt.Attached))
		}
	}
	grown := append(turns[1].Attached, "threengram://memory/extra")
	if len(turns[2].Attached) != 1000 || &grown[0] == &turns[2].Attached[0] {
		t.Errorf("an append to turn 2's set reached turn 3's")
	}
	f := ComputeFreshness(turns, time.Minute)
	if f.TurnReads != 1000*1000 {
		t.Errorf("TurnReads = %d, want %d", f.TurnReads, 1000*1000)
	}
}

// A parse stops once its context ends.
func TestParseContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseContext(ctx, strings.NewReader(amplifying(5000, 10))); !errors.Is(err, context.Canceled) {
		t.Errorf("ParseContext after cancel = %v, want context.Canceled", err)
	}
}

// BenchmarkParseAmplifying parses the amplifying replay and works
// out its freshness (what RunLab does before its first read).
func BenchmarkParseAmplifying(b *testing.B) {
	in := amplifying(50000, 1000)
	b.ReportAllocs()
	for b.Loop() {
		turns, err := Parse(strings.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		ComputeFreshness(turns, time.Minute)
	}
}

// Origins name each attached resource's server and account, are
// inherited with the attached set, and must match it one for one.
func TestParseOrigins(t *testing.T) {
	in := `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","attached":["threengram://memory/m1","threengram://memory/m1","file:///x"],"origins":[{"server":"demo","account":"acme"},{"server":"demo","account":"globex"},{}],"toolCalls":[{"name":"echo","origin":{"server":"server-everything"}}]}
{"session":"s","turn":2,"at":"2026-11-30T10:01:00Z"}
`
	turns, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	acme, globex := Origin{"demo", "acme"}, Origin{"demo", "globex"}
	for _, tn := range turns {
		if got := []Origin{tn.Origin(0), tn.Origin(1), tn.Origin(2)}; !cmp.Equal(got, []Origin{acme, globex, {}}) {
			t.Errorf("turn %d origins: %v", tn.Turn, got)
		}
	}
	if o := turns[0].ToolCalls[0].Origin; o != (Origin{Server: "server-everything"}) || o.String() != "server-everything" || acme.String() != "demo/acme" {
		t.Errorf("tool call origin %+v (%s)", o, o)
	}
	var buf bytes.Buffer
	if err := Write(&buf, turns); err != nil {
		t.Fatal(err)
	}
	again, err := Parse(&buf)
	if err != nil || !cmp.Equal(turns, again) {
		t.Errorf("round trip: %v\n%s", err, cmp.Diff(turns, again))
	}
	for _, bad := range []string{
		`{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","attached":["a:b"],"origins":[{},{}]}`,
		`{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","attached":["a:b"],"origins":[{"account":"acme"}]}`,
		`{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","toolCalls":[{"name":"x","origin":{"account":"acme"}}]}`,
	} {
		var le *LineError
		if _, err := Parse(strings.NewReader(bad)); !errors.As(err, &le) || le.Line != 1 {
			t.Errorf("%s: got %v, want an error on line 1", bad, err)
		}
	}
}
