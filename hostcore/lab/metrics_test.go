package lab

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const (
	a = "threengram://memory/a"
	b = "threengram://memory/b"
	c = "threengram://memory/c"
)

// A small replay worked out by hand. Four turns:
//  1. needs a and b; both attached, and the tool fetched a again (a duplicate);
//  2. needs c; the tool call failed, so nothing reached;
//  3. needs nothing (left out of both reaches);
//  4. needs a and missing; missing is not on the server, a came back.
//
// Relevant turns 1, 2, 4: all reached only in turn 1 → reach 1/3.
// Relevant items 2 + 1 + 2 = 5; reached a, b (turn 1), a (turn 4) → 3/5.
// Duplicates: turn 1 only, of 4 turns → 1/4.
// Requests: turns 1, 2, 4 have a tool round (2 requests), turn 3 one: 7.
// Listing 100 in each: 700 of totals 300+400 + 250+350 + 200 + 300+420
// = 2220 → 100 tokens a request, share 700/2220.
func TestSummarizeByHand(t *testing.T) {
	missing := "threengram://memory/missing"
	two := func(t1, t2 int) []Request { return []Request{{100, t1}, {100, t2}} }
	obs := []Observation{
		{Relevant: []string{a, b}, Deliveries: []string{a, b, a}, Requests: two(300, 400), ContextTokens: 900,
			RoundTrips: 1, CacheHits: 2, Bytes: 120, Wall: 10 * time.Millisecond},
		{Relevant: []string{c}, Requests: two(250, 350), ContextTokens: 400, RoundTrips: 1, Failed: 1, Wall: 5 * time.Millisecond},
		{Requests: []Request{{100, 200}}, ContextTokens: 100},
		{Relevant: []string{a, missing}, Deliveries: []string{a}, Requests: two(300, 420), ContextTokens: 500, RoundTrips: 1, Bytes: 60},
	}
	got := Summarize(Both, obs)
	want := Result{Strategy: Both, Turns: 4, RelevantTurns: 3, RelevantItems: 5,
		Reach: 1.0 / 3, ItemReach: 3.0 / 5, DuplicateRate: 1.0 / 4,
		ListingTokensPerRequest: 100, ListingShare: 700.0 / 2220, RequestTokensPerRequest: 2220.0 / 7, ContextTokensPerTurn: 1900.0 / 4,
		Requests: 7, RoundTrips: 3, Bytes: 180, WallMs: 15, CacheHits: 2, Failures: 1, FailedTurns: 1,
		ReachInterval: Wilson(1, 3), ItemReachInterval: Wilson(3, 5), DuplicateInterval: Wilson(1, 4)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
}

func TestSummarizeEdges(t *testing.T) {
	tests := []struct {
		name string
		obs  []Observation
		want Result
	}{
		{"no turn at all", nil, Result{Strategy: Host, Reach: 1, ItemReach: 1}},
		{"no turn with relevant data: nothing was missed", []Observation{{Deliveries: []string{a}}},
			Result{Strategy: Host, Turns: 1, Reach: 1, ItemReach: 1}},
		{"a relevant resource repeated counts once", []Observation{{Relevant: []string{a, a}, Deliveries: []string{a}}},
			Result{Strategy: Host, Turns: 1, RelevantTurns: 1, RelevantItems: 1, Reach: 1, ItemReach: 1}},
		{"nothing reached", []Observation{{Relevant: []string{a}}, {Relevant: []string{b}}},
			Result{Strategy: Host, Turns: 2, RelevantTurns: 2, RelevantItems: 2}},
		{"data no one asked for, twice, is still a duplicate", []Observation{{Deliveries: []string{c, c}}, {}},
			Result{Strategy: Host, Turns: 2, Reach: 1, ItemReach: 1, DuplicateRate: 0.5}},
		{"no listing: no share", []Observation{{Requests: []Request{{0, 50}}, ContextTokens: 50}},
			Result{Strategy: Host, Turns: 1, Reach: 1, ItemReach: 1, Requests: 1, RequestTokensPerRequest: 50, ContextTokensPerTurn: 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ignore := cmpopts.IgnoreFields(Result{}, "ReachInterval", "ItemReachInterval", "DuplicateInterval")
			if diff := cmp.Diff(tt.want, Summarize(Host, tt.obs), ignore); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The intervals of a summary are over the rates' own denominators: no
// relevant turn leaves reach unknown (the whole of 0–1), and a failure
// counts its turn once however many reads failed in it.
func TestSummarizeIntervals(t *testing.T) {
	obs := []Observation{{Deliveries: []string{c, c}, Failed: 2}, {Failed: 1}, {}}
	got := Summarize(Host, obs)
	if got.ReachInterval != (Interval{0, 1}) || got.ItemReachInterval != (Interval{0, 1}) {
		t.Errorf("no relevant turn: reach %+v, item reach %+v, want 0–1", got.ReachInterval, got.ItemReachInterval)
	}
	if got.DuplicateInterval != Wilson(1, 3) {
		t.Errorf("duplicates: %+v, want Wilson(1, 3) = %+v", got.DuplicateInterval, Wilson(1, 3))
	}
	if got.Failures != 3 || got.FailedTurns != 2 {
		t.Errorf("failures %d in %d turns, want 3 in 2", got.Failures, got.FailedTurns)
	}
}

// Two sessions. s1: turns at 10:00 (a, b attached), 10:10 (a), 10:30 (a).
// Held: 2 resources × 600 s + 1 × 1200 s = 2400 resource-seconds; at 60 s
// that is 40 polls. Re-read per turn: 2 + 1 + 1 = 4 reads. s2: one turn
// with c at 11:00, no span: 1 read, no poll. Session hours: 30 min = 0.5.
func TestFreshnessByHand(t *testing.T) {
	at := func(hm string) time.Time {
		tm, err := time.Parse("15:04", hm)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	turns := []Turn{
		{Session: "s1", Turn: 1, At: at("10:00"), Attached: []string{a, b}},
		{Session: "s1", Turn: 2, At: at("10:10"), Attached: []string{a}},
		{Session: "s2", Turn: 1, At: at("11:00"), Attached: []string{c}},
		{Session: "s1", Turn: 3, At: at("10:30"), Attached: []string{a}},
	}
	got := ComputeFreshness(turns, time.Minute)
	want := Freshness{PollIntervalSeconds: 60, Sessions: 2, SessionHours: 0.5, TurnsPerSessionHour: 8,
		PollReads: 40, TurnReads: 5, PollReadsPerSessionHour: 80, PerTurnReadsPerSessionHour: 10}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Seed 002's figure: one resource polled every 60 s for an hour is 60
	// reads, against 450 when the session has 450 turns in that hour.
	var long []Turn
	start := at("09:00")
	for i := range 451 {
		long = append(long, Turn{Session: "s", Turn: i + 1, At: start.Add(time.Duration(i) * 8 * time.Second), Attached: []string{a}})
	}
	f := ComputeFreshness(long, time.Minute)
	if f.SessionHours != 1 || f.PollReadsPerSessionHour != 60 || f.TurnReads != 451 {
		t.Errorf("an hour of turns every 8 s: %+v", f)
	}
	if z := ComputeFreshness(turns[2:3], time.Minute); z.PollReadsPerSessionHour != 0 || z.TurnReads != 1 {
		t.Errorf("one turn: %+v", z)
	}
}

func TestCarried(t *testing.T) {
	tests := []struct {
		name, result string
		want         []string
	}{
		{"get_memories", `{"memories":[{"id":"a","uri":"` + a + `","content":"the body"}],"notFound":["zz"]}`, []string{a}},
		{"not found carries nothing", `{"memories":[],"notFound":["a"]}`, nil},
		{"an excerpt is not the data", `{"results":[{"uri":"` + a + `","excerpt":"the bo"}]}`, nil},
		{"empty content", `{"memories":[{"uri":"` + a + `","content":" "}]}`, nil},
		{"not JSON", `The call failed: tool not found.`, nil},
		{"the same memory twice", `{"memories":[{"uri":"` + a + `","content":"x"},{"uri":"` + a + `","content":"x"}]}`, []string{a, a}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Carried([]byte(tt.result))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	rs := []Result{{Strategy: Host, Reach: 1}, {Strategy: Tool, Reach: 0.71, DuplicateRate: 0.1}}
	got := Thresholds{MinReach: 0.95, MaxDuplicates: 0.05}.Check(rs)
	want := []Shortfall{{Tool, "min-reach", 0.95, 0.71}, {Tool, "max-duplicates", 0.05, 0.1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := (Thresholds{MaxDuplicates: -1}).Check(rs); got != nil {
		t.Errorf("no threshold set: %v", got)
	}
	if s := want[0].String(); s != "tool: reach 0.7100 is below --min-reach 0.9500" {
		t.Errorf("String: %q", s)
	}
}

func TestParseStrategies(t *testing.T) {
	got, err := ParseStrategies("tool, HOST,tool")
	if err != nil || !cmp.Equal(got, []Strategy{Tool, Host}) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := ParseStrategies("host,attach"); err == nil {
		t.Error("an unknown strategy was accepted")
	}
}
