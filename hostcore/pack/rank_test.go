package pack

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// blockCounter counts one token per "█", so a test sets an item's size
// exactly and headers cost nothing. TestRankTokensAreWhatIsSent checks the
// header is counted with a counter that sees it.
type blockCounter struct{}

func (blockCounter) Count(s string) int { return strings.Count(s, "█") }

// body is a one-entry text read of n tokens under blockCounter.
func body(n int) []Content {
	return []Content{{URI: "x://body", MIMEType: "text/plain", Text: strings.Repeat("█", n)}}
}

func prio(p float64) *float64 { return &p }

// kindErr is an error of another package that says its kind, as
// hostcore's *Error does.
type kindErr struct{ kind, msg string }

func (e kindErr) Error() string    { return e.msg }
func (e kindErr) KindName() string { return e.kind }

// Errors of the kinds hostcore gives, for this package's tests (internal
// and external).
var (
	ErrNotFound  error = kindErr{"not found", "resource not found"}
	ErrForbidden error = kindErr{"forbidden", "forbidden"}
	errTransport error = kindErr{"transport", "dial tcp: refused"}
)

// row is what a test checks of a decision.
type row struct {
	ID       string
	Verdict  Verdict
	Priority float64
	Tokens   int
	Reason   string
}

func rows(p Packing) []row {
	var out []row
	for i, d := range p.Decisions {
		if d.Rank != i+1 {
			panic(fmt.Sprintf("decision %d has rank %d", i, d.Rank))
		}
		out = append(out, row{d.Item.ID, d.Verdict, d.Priority, d.Tokens, d.Reason})
	}
	return out
}

// oneToken is an item of one token under blockCounter.
func oneToken(id string, order int, a Annotations) *Item {
	return &Item{ID: id, Order: order, Annotations: a, Contents: body(1)}
}

func included(id string, p float64, tokens int) row {
	return row{id, VerdictIncluded, p, tokens, "included: " + Quantity(tokens, "token")}
}

func TestRank(t *testing.T) {
	tests := []struct {
		name         string
		budget       int
		items        []*Item
		want         []row
		used, exceed int
	}{{
		name: "audience: user only held, assistant, none and both included",
		items: []*Item{
			oneToken("user", 0, Annotations{Audience: []string{"user"}}),
			{ID: "assistant", Order: 1, Annotations: Annotations{Audience: []string{"assistant"}}, Contents: body(2)},
			{ID: "none", Order: 2, Contents: body(3)},
			{ID: "both", Order: 3, Annotations: Annotations{Audience: []string{"user", "assistant"}}, Contents: body(4)},
		},
		want: []row{
			{"user", VerdictHeldAudience, 0.5, 0, "held back: audience is user only"},
			included("assistant", 0.5, 2),
			included("none", 0.5, 3),
			included("both", 0.5, 4),
		},
		used: 9,
	}, {
		name: "priority ties broken by lastModified, newer first, then attach order",
		items: []*Item{
			oneToken("jan", 0, Annotations{Priority: prio(0.7), LastModified: "2025-01-01T00:00:00Z"}),
			oneToken("mar-late", 2, Annotations{Priority: prio(0.7), LastModified: "2025-03-01T00:00:00Z"}),
			oneToken("mar-early", 1, Annotations{Priority: prio(0.7), LastModified: "2025-03-01T00:00:00Z"}),
			oneToken("higher", 3, Annotations{Priority: prio(0.8), LastModified: "2020-01-01T00:00:00Z"}),
		},
		want: []row{
			included("higher", 0.8, 1),
			included("mar-early", 0.7, 1),
			included("mar-late", 0.7, 1),
			included("jan", 0.7, 1),
		},
		used: 4,
	}, {
		name: "lastModified compares instants across ISO 8601 shapes",
		items: []*Item{
			oneToken("08:00Z", 0, Annotations{LastModified: "2025-03-01T10:00:00+02:00"}),
			oneToken("08:30:00.5Z", 1, Annotations{LastModified: "2025-03-01T08:30:00.5Z"}),
			oneToken("08:30Z", 2, Annotations{LastModified: "2025-03-01 08:30:00Z"}),
			oneToken("08:45 no zone", 3, Annotations{LastModified: "2025-03-01T08:45:00"}),
			oneToken("09:00Z", 4, Annotations{LastModified: "2025-03-01t09:00:00.000000001z"}),
		},
		want: []row{
			included("09:00Z", 0.5, 1),
			included("08:45 no zone", 0.5, 1),
			included("08:30:00.5Z", 0.5, 1),
			included("08:30Z", 0.5, 1),
			included("08:00Z", 0.5, 1),
		},
		used: 5,
	}, {
		name: "unparsable or absent lastModified ranks as oldest",
		items: []*Item{
			oneToken("garbage", 0, Annotations{LastModified: "yesterday"}),
			oneToken("absent", 1, Annotations{}),
			oneToken("2001", 2, Annotations{LastModified: "2001-01-01T00:00:00Z"}),
			oneToken("month 13", 3, Annotations{LastModified: "2025-13-01T00:00:00Z"}),
		},
		want: []row{
			included("2001", 0.5, 1),
			included("garbage", 0.5, 1),
			included("absent", 0.5, 1),
			included("month 13", 0.5, 1),
		},
		used: 4,
	}, {
		name: "pinned before a priority-1 item",
		items: []*Item{
			oneToken("required", 0, Annotations{Priority: prio(1)}),
			{ID: "pinned", Order: 1, Pinned: true, Annotations: Annotations{Priority: prio(0)}, Contents: body(1)},
		},
		want: []row{included("pinned", 0, 1), included("required", 1, 1)},
		used: 2,
	}, {
		name: "override beats annotation upward",
		items: []*Item{
			oneToken("annotated 0.9", 0, Annotations{Priority: prio(0.9)}),
			{ID: "overridden to 1", Order: 1, Annotations: Annotations{Priority: prio(0.1)}, PriorityOverride: prio(1), Contents: body(1)},
		},
		want: []row{included("overridden to 1", 1, 1), included("annotated 0.9", 0.9, 1)},
		used: 2,
	}, {
		name: "override beats annotation downward, and an override of 0 is not absent",
		items: []*Item{
			{ID: "overridden to 0", Order: 0, Annotations: Annotations{Priority: prio(1)}, PriorityOverride: prio(0), Contents: body(1)},
			oneToken("unannotated", 1, Annotations{}),
			oneToken("annotated 0.1", 2, Annotations{Priority: prio(0.1)}),
		},
		want: []row{
			included("unannotated", DefaultPriority, 1),
			included("annotated 0.1", 0.1, 1),
			included("overridden to 0", 0, 1),
		},
		used: 3,
	}, {
		name: "absent priority ranks as 0.5, and priorities are clamped to 0..1",
		items: []*Item{
			oneToken("0.4", 0, Annotations{Priority: prio(0.4)}),
			oneToken("absent", 1, Annotations{}),
			oneToken("0.6", 2, Annotations{Priority: prio(0.6)}),
			oneToken("-3", 3, Annotations{Priority: prio(-3)}),
			oneToken("7", 4, Annotations{Priority: prio(7)}),
		},
		want: []row{
			included("7", 1, 1),
			included("0.6", 0.6, 1),
			included("absent", 0.5, 1),
			included("0.4", 0.4, 1),
			included("-3", 0, 1),
		},
		used: 5,
	}, {
		name:   "required over budget is included and the excess is reported",
		budget: 10,
		items: []*Item{
			{ID: "small", Order: 0, Annotations: Annotations{Priority: prio(0.2)}, Contents: body(1)},
			{ID: "pinned", Order: 1, Pinned: true, Contents: body(6)},
			{ID: "required", Order: 2, Annotations: Annotations{Priority: prio(1)}, Contents: body(7)},
			{ID: "required too", Order: 3, PriorityOverride: prio(1), Contents: body(2)},
		},
		want: []row{
			included("pinned", 0.5, 6),
			{"required", VerdictIncluded, 1, 7, "included over budget: priority 1 is required; needs 7 tokens, 4 left of 10; budget exceeded by 3 tokens"},
			{"required too", VerdictIncluded, 1, 2, "included over budget: priority 1 is required; needs 2 tokens, 0 left of 10; budget exceeded by 5 tokens"},
			{"small", VerdictDroppedBudget, 0.2, 1, "dropped: needs 1 token, 0 left of 10"},
		},
		used: 15, exceed: 5,
	}, {
		name:   "greedy: a big item is dropped and a later small one still fits",
		budget: 10,
		items: []*Item{
			{ID: "a", Order: 0, Contents: body(4)},
			{ID: "big", Order: 1, Contents: body(20)},
			{ID: "b", Order: 2, Contents: body(5)},
			{ID: "c", Order: 3, Contents: body(2)},
			{ID: "d", Order: 4, Contents: body(1)},
		},
		want: []row{
			included("a", 0.5, 4),
			{"big", VerdictDroppedBudget, 0.5, 20, "dropped: needs 20 tokens, 6 left of 10"},
			included("b", 0.5, 5),
			{"c", VerdictDroppedBudget, 0.5, 2, "dropped: needs 2 tokens, 1 left of 10"},
			included("d", 0.5, 1),
		},
		used: 10,
	}, {
		name: "a pinned item is not required: it is dropped when it does not fit",
		items: []*Item{
			{ID: "pinned", Pinned: true, Contents: body(8001)},
		},
		want: []row{{"pinned", VerdictDroppedBudget, 0.5, 8001, "dropped: needs 8,001 tokens, 8,000 left of 8,000"}},
	}, {
		name: "unreadable items carry their error kind and use no budget",
		items: []*Item{
			{ID: "not found", Order: 0, ReadErr: fmt.Errorf("reading x://gone: %w", ErrNotFound)},
			{ID: "own kind", Order: 1, ReadErr: fmt.Errorf("reading: %w", errTransport)},
			{ID: "no kind", Order: 2, ReadErr: errors.New("boom")},
			{ID: "empty read", Order: 3, Contents: []Content{}},
			{ID: "user only", Order: 4, Annotations: Annotations{Audience: []string{"user"}}, ReadErr: ErrForbidden},
			{ID: "fits", Order: 5, Contents: body(8000)},
		},
		want: []row{
			{"not found", VerdictUnreadable, 0.5, 0, "unreadable: not found"},
			{"own kind", VerdictUnreadable, 0.5, 0, "unreadable: transport"},
			{"no kind", VerdictUnreadable, 0.5, 0, "unreadable: error"},
			{"empty read", VerdictUnreadable, 0.5, 0, "unreadable: no contents"},
			{"user only", VerdictUnreadable, 0.5, 0, "unreadable: forbidden"},
			included("fits", 0.5, 8000),
		},
		used: 8000,
	}, {
		name: "items equal on every key keep their given order",
		items: []*Item{
			{ID: "first", Order: 7, Contents: body(1)},
			{ID: "second", Order: 7, Contents: body(1)},
			{ID: "third", Order: 7, Contents: body(1)},
		},
		want: []row{included("first", 0.5, 1), included("second", 0.5, 1), included("third", 0.5, 1)},
		used: 3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Rank(tt.items, &RankOptions{Budget: tt.budget, Tokens: blockCounter{}})
			if diff := cmp.Diff(tt.want, rows(p)); diff != "" {
				t.Errorf("decisions (-want +got):\n%s", diff)
			}
			wantBudget := tt.budget
			if wantBudget == 0 {
				wantBudget = DefaultBudget
			}
			got := [3]int{p.Budget, p.Used, p.Exceeded}
			if want := [3]int{wantBudget, tt.used, tt.exceed}; got != want {
				t.Errorf("budget, used, exceeded = %v, want %v", got, want)
			}
		})
	}
}

// The tokens of an item are those of its section in the assembled document:
// summed over the included items, they are the document's own count, less
// the newlines between sections, plus each image's estimate (here a
// 640×480 PNG: 410 tokens by Anthropic's width×height/750, 425 by OpenAI's
// two tiles, so 425 before a model is chosen, and 85 at OpenAI's detail
// low).
func TestRankTokensAreWhatIsSent(t *testing.T) {
	items := []*Item{
		{ID: "a", Server: "notes", Account: "me", URI: "file:///a.md", Order: 0,
			Annotations: Annotations{LastModified: "2025-01-02T03:04:05Z"},
			Contents:    []Content{{URI: "file:///a.md", MIMEType: "text/markdown", Text: "# A\n\n```go\nx := 1\n```\n"}}},
		{ID: "b", Server: "pics", URI: "pics://1", Order: 1, Contents: []Content{
			{URI: "pics://1/caption", MIMEType: "text/plain", Text: "a cat"},
			{URI: "pics://1/img", MIMEType: "image/png", Blob: pngOf(t, 640, 480), IsBlob: true},
		}},
		{ID: "c", Server: "docs", URI: "docs://c.pdf", Order: 2,
			Contents: []Content{{URI: "docs://c.pdf", MIMEType: "application/pdf", Blob: make([]byte, 12345), IsBlob: true}}},
	}
	bytesCounter := counterFunc(func(s string) int { return len(s) })
	for _, tt := range []struct {
		vision *Vision
		image  int
	}{{nil, 425}, {new(AnthropicVision()), 410}, {new(OpenAIVision("low")), 85}} {
		p := Rank(items, &RankOptions{Tokens: bytesCounter, Vision: tt.vision})
		md := Assemble(p).Markdown()
		want := len(md) - (len(items) - 1) + tt.image
		if p.Used != want {
			t.Errorf("%s: Used = %d, want %d: the meter does not match the %d-byte document and its image\n%s",
				p.Vision.Name, p.Used, want, len(md), md)
		}
	}

	// And with the real tokenizer, an item costs more than its body alone.
	packed := Rank(items[:1], nil)
	if bodyOnly := DefaultTokenCounter().Count(items[0].Contents[0].Text); packed.Used <= bodyOnly {
		t.Errorf("Used = %d, no more than the body's %d tokens: the header is not counted", packed.Used, bodyOnly)
	}
}

type counterFunc func(string) int

func (f counterFunc) Count(s string) int { return f(s) }

// nil options mean DefaultBudget and DefaultTokenCounter.
func TestRankNilOptions(t *testing.T) {
	items := []*Item{{ID: "a", URI: "x://a", Contents: []Content{{Text: "hello world"}}}}
	got := Rank(items, nil)
	want := Rank(items, &RankOptions{Budget: DefaultBudget, Tokens: DefaultTokenCounter()})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rank(nil options) differs from explicit defaults (-want +got):\n%s", diff)
	}
	if got.Decisions[0].Tokens == 0 {
		t.Error("the default counter counted nothing")
	}
}

// Rank sorts a copy: the caller's slice and items are untouched, and the
// decisions point at the caller's items.
func TestRankLeavesItemsAlone(t *testing.T) {
	a := &Item{ID: "a", Order: 1, Contents: body(1)}
	b := &Item{ID: "b", Order: 0, Contents: body(1)}
	items := []*Item{a, nil, b}
	p := Rank(items, &RankOptions{Tokens: blockCounter{}})
	if items[0] != a || items[1] != nil || items[2] != b {
		t.Error("Rank reordered the caller's slice")
	}
	if len(p.Decisions) != 2 || p.Decisions[0].Item != b || p.Decisions[1].Item != a {
		t.Errorf("decisions = %+v, want b then a, nil skipped", p.Decisions)
	}
}

// Large rankings count tokens on several goroutines (run with -race): every
// item still gets its own count, and packing still follows rank order.
func TestRankManyItems(t *testing.T) {
	items := make([]*Item, 4*parallelAbove)
	for i := range items {
		items[i] = &Item{ID: fmt.Sprint(i), URI: fmt.Sprintf("x://%d", i), Order: i,
			Contents: []Content{{Text: fmt.Sprintf("body %d %s", i, strings.Repeat("word ", i%50))}}}
	}
	counter, either := DefaultTokenCounter(), EitherVision()
	p := Rank(items, &RankOptions{Budget: 1000, Tokens: counter})
	used, smallestDropped := 0, math.MaxInt
	for i, d := range p.Decisions {
		if d.Item != items[i] {
			t.Fatalf("decision %d is item %s, want %d", i, d.Item.ID, i)
		}
		if want := counter.Count(sectionOf(d.Item, &either).Markdown()); d.Tokens != want {
			t.Errorf("item %d: %d tokens, want %d", i, d.Tokens, want)
		}
		switch d.Verdict {
		case VerdictIncluded:
			used += d.Tokens
		case VerdictDroppedBudget:
			smallestDropped = min(smallestDropped, d.Tokens)
		}
	}
	// Greedy: what is left at the end is too little for any dropped item.
	if used != p.Used || used > 1000 || 1000-used >= smallestDropped {
		t.Errorf("used %d (Packing says %d) of 1,000, smallest dropped %d", used, p.Used, smallestDropped)
	}
}

func TestRankParseModified(t *testing.T) {
	utc := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, tt := range []struct {
		in   string
		want time.Time // zero: unparsable
	}{
		{"2025-03-01T08:30:00Z", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01T08:30:00.123456789Z", utc("2025-03-01T08:30:00.123456789Z")},
		{"2025-03-01T10:30:00+02:00", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01T10:30:00+0200", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01t08:30:00z", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01 08:30:00Z", utc("2025-03-01T08:30:00Z")},
		{" 2025-03-01T08:30:00Z ", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01T08:30:00", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01T08:30:00.5", utc("2025-03-01T08:30:00.5Z")},
		{"2025-03-01T08:30:00,25Z", utc("2025-03-01T08:30:00.25Z")},
		{"2025-03-01T08:30Z", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01T08:30", utc("2025-03-01T08:30:00Z")},
		{"2025-03-01", utc("2025-03-01T00:00:00Z")},
		{"", time.Time{}},
		{"yesterday", time.Time{}},
		{"2025-02-30T00:00:00Z", time.Time{}},
		{"2024-02-29T23:59:59-23:59", utc("2024-03-01T23:58:59Z")},
		{"2023-02-29T00:00:00Z", time.Time{}},
		{"2100-02-29T00:00:00", time.Time{}},
		{"2025-04-31T00:00:00Z", time.Time{}},
		{"2025-03-01T24:00:00Z", time.Time{}},
		{"2025-03-01T08:30:60Z", time.Time{}},
		{"2025-03-01T08:30:00.Z", time.Time{}},
		{"2025-03-01T08:30:00+24:00", utc("2025-02-28T08:30:00Z")}, // time.Parse takes it; the fast path leaves it to time.Parse
		{"2025-03-01T08:30:00.1234567891Z", utc("2025-03-01T08:30:00.123456789Z")},
		{"1740817800", time.Time{}},
	} {
		got, ok := parseModified(tt.in)
		if ok != !tt.want.IsZero() || !got.Equal(tt.want) {
			t.Errorf("parseModified(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
		}
	}
}
