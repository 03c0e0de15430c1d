// Package lab holds the comparison lab's pure parts: the replay format (JSON
// Lines, one turn a line), the metrics computed from what each strategy
// delivered in each turn, and the freshness arithmetic. It does no I/O
// beyond the reader and writer it is handed and imports no session code:
// hostcore's Lab replays the turns against a real server and hands the
// observations here. Seed 002 names what is measured: read reach,
// duplicate delivery, listing growth and polling cost.
package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// MaxLineBytes bounds one line of a replay file.
const MaxLineBytes = 4 << 20

// Turn is one line of a replay file.
type Turn struct {
	// Session groups turns; Turn is the turn's number in its session.
	Session string    `json:"session"`
	Turn    int       `json:"turn"`
	At      time.Time `json:"at"`
	User    string    `json:"user"`
	// Relevant is the ground truth: the resources (URIs) whose data the
	// turn needs.
	Relevant []string `json:"relevant"`
	// Attached is the full set the host had in context for the turn. Nil
	// (the key absent) means the session's previous turn's set; an empty
	// list means nothing. Parse resolves it, so a parsed turn always says.
	Attached []string `json:"attached"`
	// Origins, when present, gives the server and account of each
	// attached resource, in Attached's order: a recorded conversation's
	// memories may come from several servers and accounts, and each is
	// replayed against its own. An entry with no server, and a turn with
	// no origins, mean the server the replay runs against. Like Attached,
	// a turn without the key takes the session's previous turn's.
	Origins []Origin `json:"origins,omitempty"`
	// ToolCalls is what a model called in that turn when it had the tools.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
}

// ToolCall is a recorded call: the tool's name as the server lists it, and
// its arguments, a JSON object.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Origin is the server (and account) the call was made on; none means
	// the server the replay runs against.
	Origin Origin `json:"origin,omitzero"`
}

// Origin names the server and account a resource or tool came from.
type Origin struct {
	Server  string `json:"server,omitempty"`
	Account string `json:"account,omitempty"`
}

// String is "server/account", or the server alone when no account is
// named.
func (o Origin) String() string {
	if o.Account == "" {
		return o.Server
	}
	return o.Server + "/" + o.Account
}

// Origin returns the origin of the i-th attached resource.
func (t Turn) Origin(i int) Origin {
	if i < len(t.Origins) {
		return t.Origins[i]
	}
	return Origin{}
}

// LineError says which line of a replay is wrong, and why.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// MaxReplayBytes bounds a replay file. The bundled replay is 80 KiB; a
// replay of a year of a team's turns is a few MiB. Parse's memory stays
// within a small multiple of what it reads, so the cap bounds that too.
const MaxReplayBytes = 64 << 20

// Parse is ParseContext with no deadline.
func Parse(r io.Reader) ([]Turn, error) { return ParseContext(context.Background(), r) }

// ParseContext reads a replay: one JSON object a line; blank lines are
// skipped. Unknown keys, a missing session or time, a turn number that is
// not positive, an empty URI or tool name, and arguments that are not an
// object are refused with the line's number. A missing attached key takes
// the session's previous turn's set (nothing, for a session's first turn).
//
// An inherited set is shared, not copied: every turn that inherits it
// holds the same slice, which callers must not change. So memory stays in
// proportion to the file, however many turns inherit however large a set
// (50,000 turns inheriting 1,000 URIs would otherwise hold 50 million).
// ParseContext stops, with ctx's error, once ctx ends.
func ParseContext(ctx context.Context, r io.Reader) ([]Turn, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	var out []Turn
	last := map[string][]string{}
	lastOrigins := map[string][]Origin{}
	none := []string{}
	for n := 1; sc.Scan(); n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		t, err := parseLine(line)
		if err != nil {
			return nil, &LineError{n, err}
		}
		if t.Attached == nil {
			t.Attached = last[t.Session]
			if t.Attached == nil {
				t.Attached = none
			}
			if t.Origins == nil {
				t.Origins = lastOrigins[t.Session]
			}
		}
		if len(t.Origins) > 0 && len(t.Origins) != len(t.Attached) {
			return nil, &LineError{n, fmt.Errorf(`"origins" has %d entries for %d attached resources`, len(t.Origins), len(t.Attached))}
		}
		lastOrigins[t.Session] = t.Origins
		t.Attached = slices.Clip(t.Attached) // an append by a caller copies
		last[t.Session] = t.Attached
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("a line is longer than %d bytes", MaxLineBytes)
		}
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("the replay has no turn")
	}
	return out, nil
}

func parseLine(line []byte) (Turn, error) {
	var t Turn
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Turn{}, fmt.Errorf("not a replay turn: %v", err)
	}
	if dec.More() {
		return Turn{}, errors.New("more than one JSON value")
	}
	switch {
	case strings.TrimSpace(t.Session) == "":
		return Turn{}, errors.New(`"session" is missing`)
	case t.Turn <= 0:
		return Turn{}, errors.New(`"turn" must be a positive number`)
	case t.At.IsZero():
		return Turn{}, errors.New(`"at" is missing (an RFC 3339 time)`)
	}
	if t.Relevant == nil {
		t.Relevant = []string{}
	}
	for _, list := range [][]string{t.Relevant, t.Attached} {
		if slices.Contains(list, "") {
			return Turn{}, errors.New("an empty URI")
		}
	}
	for i, o := range t.Origins {
		if o.Server == "" && o.Account != "" {
			return Turn{}, fmt.Errorf("origin %d names account %q and no server", i+1, o.Account)
		}
	}
	for i, c := range t.ToolCalls {
		if c.Origin.Server == "" && c.Origin.Account != "" {
			return Turn{}, fmt.Errorf("tool call %d (%s) names account %q and no server", i+1, c.Name, c.Origin.Account)
		}
		if strings.TrimSpace(c.Name) == "" {
			return Turn{}, fmt.Errorf("tool call %d has no name", i+1)
		}
		if len(c.Arguments) == 0 || string(c.Arguments) == "null" {
			t.ToolCalls[i].Arguments = json.RawMessage(`{}`)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(c.Arguments, &m); err != nil || m == nil {
			return Turn{}, fmt.Errorf("tool call %d (%s): arguments must be a JSON object", i+1, c.Name)
		}
	}
	return t, nil
}

// Write writes turns as a replay, one compact line each, with attached
// always present.
func Write(w io.Writer, turns []Turn) error {
	bw := bufio.NewWriter(w)
	for _, t := range turns {
		if t.Relevant == nil {
			t.Relevant = []string{}
		}
		if t.Attached == nil {
			t.Attached = []string{}
		}
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
