package pack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The fast paths of ranking (the packed sort keys, the item and body memos,
// the shared reasons, the Ranker's buffers) give what the straightforward
// reading of Rank's documentation gives, on random items: the same order,
// verdicts, priorities, tokens and reasons, ranked once, again (from the
// memos), and by a Ranker through pins, priorities, bodies and budgets
// changing.
func TestRankAgreesWithStraightforward(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 15))
		items := randomItems(rng, 1+rng.IntN(2*parallelAbove), seed%2 == 0) // every other seed has dates the sort cannot pack
		for _, counter := range []TokenCounter{DefaultTokenCounter(), counterFunc(func(s string) int { return len(s) / 3 })} {
			budget := rng.IntN(400 * len(items))
			want := straightforwardRank(items, budget, counter)
			for _, pass := range []string{"first", "again", "changed in place"} {
				if pass == "changed in place" { // the memos must see it
					for _, it := range items[:min(len(items), 20)] {
						if it != nil && it.ReadErr == nil && len(it.Contents) > 0 {
							it.Contents[0].Text, it.Annotations.LastModified = randomText(rng), randomModified(rng, seed%2 == 0)
						}
					}
					want = straightforwardRank(items, budget, counter)
				}
				got := rows(Rank(items, &RankOptions{Budget: budget, Tokens: counter}))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d, %T, %s pass: Rank differs from the straightforward ranking (-want +got):\n%s", seed, counter, pass, diff)
				}
			}
			r := NewRanker(&RankOptions{Tokens: counter})
			r.Rank(items, budget)
			changed := slices.Clone(items)
			for step := range 6 {
				i := rng.IntN(len(changed))
				if changed[i] != nil {
					c := *changed[i]
					switch step % 3 {
					case 0:
						c.Pinned = !c.Pinned
					case 1:
						c.PriorityOverride = randomPriority(rng)
					case 2:
						c.Contents = []Content{{URI: c.URI, MIMEType: "text/plain", Text: randomText(rng)}}
					}
					changed[i] = &c
				}
				budget = rng.IntN(400 * len(items))
				want := straightforwardRank(changed, budget, counter)
				if diff := cmp.Diff(want, rows(r.Rank(changed, budget))); diff != "" {
					t.Fatalf("seed %d, %T, step %d: the Ranker differs from the straightforward ranking (-want +got):\n%s", seed, counter, step, diff)
				}
				budget = rng.IntN(400 * len(items))
				want = straightforwardRank(changed, budget, counter)
				if diff := cmp.Diff(want, rows(r.Repack(changed, budget))); diff != "" {
					t.Fatalf("seed %d, %T, step %d: Repack differs from the straightforward ranking (-want +got):\n%s", seed, counter, step, diff)
				}
			}
		}
	}
}

// parseModified skips the parses that can only fail; what it finds is what
// trying every shape in turn finds.
func TestRankParseModifiedAgreesWithStraightforward(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 15))
	for range 20000 {
		s := randomModified(rng, true)
		want, wantOK := straightforwardParse(s)
		got, ok := parseModified(s)
		if ok != wantOK || !got.Equal(want) {
			t.Fatalf("parseModified(%q) = %v, %v; trying every shape gives %v, %v", s, got, ok, want, wantOK)
		}
	}
}

// straightforwardRank is Rank as its documentation reads, without any of
// its shortcuts: a stable sort on the four keys, then a greedy pass.
func straightforwardRank(items []*Item, budget int, counter TokenCounter) []row {
	type entry struct {
		it       *Item
		priority float64
		modified time.Time
		dated    bool
	}
	var es []entry
	for _, it := range items {
		if it == nil {
			continue
		}
		p := 0.5
		if it.PriorityOverride != nil && !math.IsNaN(*it.PriorityOverride) {
			p = *it.PriorityOverride
		} else if it.Annotations.Priority != nil && !math.IsNaN(*it.Annotations.Priority) {
			p = *it.Annotations.Priority
		}
		m, dated := straightforwardParse(it.Annotations.LastModified)
		es = append(es, entry{it, math.Min(math.Max(p, 0), 1), m, dated})
	}
	slices.SortStableFunc(es, func(a, b entry) int {
		switch {
		case a.it.Pinned != b.it.Pinned:
			return map[bool]int{true: -1, false: 1}[a.it.Pinned]
		case a.priority != b.priority:
			return map[bool]int{true: -1, false: 1}[a.priority > b.priority]
		case a.dated != b.dated:
			return map[bool]int{true: -1, false: 1}[a.dated]
		case !a.modified.Equal(b.modified):
			return b.modified.Compare(a.modified)
		}
		return a.it.Order - b.it.Order
	})
	if budget <= 0 {
		budget = DefaultBudget
	}
	words := func(n int) string { // "1 token", "8,000 tokens"
		if n == 1 {
			return "1 token"
		}
		return commas(n) + " tokens"
	}
	used := 0
	var out []row
	for _, e := range es {
		it, r := e.it, row{ID: e.it.ID, Priority: e.priority}
		switch {
		case it.ReadErr != nil:
			r.Verdict, r.Reason = VerdictUnreadable, "unreadable: "+errorKind(it.ReadErr)
		case len(it.Contents) == 0:
			r.Verdict, r.Reason = VerdictUnreadable, "unreadable: no contents"
		case !forAssistant(it.Annotations.Audience):
			r.Verdict, r.Reason = VerdictHeldAudience, "held back: audience is "+strings.Join(it.Annotations.Audience, ", ")+" only"
		default:
			v := EitherVision()
			sec := sectionOf(it, &v)
			r.Tokens = counter.Count(sec.Markdown())
			for _, p := range sec.Parts {
				r.Tokens += p.Tokens
			}
			left := max(budget-used, 0)
			switch {
			case r.Tokens <= left:
				r.Verdict, r.Reason = VerdictIncluded, "included: "+words(r.Tokens)
				used += r.Tokens
			case e.priority >= 1:
				used += r.Tokens
				r.Verdict = VerdictIncluded
				r.Reason = fmt.Sprintf("included over budget: priority 1 is required; needs %s, %s left of %s; budget exceeded by %s",
					words(r.Tokens), commas(left), commas(budget), words(used-budget))
			default:
				r.Verdict = VerdictDroppedBudget
				r.Reason = fmt.Sprintf("dropped: needs %s, %s left of %s", words(r.Tokens), commas(left), commas(budget))
			}
		}
		out = append(out, r)
	}
	return out
}

// commas writes n with a comma between groups of three digits.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// straightforwardParse tries RFC 3339, then every shape on the normalized
// text.
func straightforwardParse(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	norm := strings.ToUpper(strings.TrimSpace(s))
	if len(norm) > 10 && norm[10] == ' ' {
		norm = norm[:10] + "T" + norm[11:]
	}
	for _, layout := range modifiedLayouts {
		if t, err := time.Parse(layout, norm); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func randomItems(rng *rand.Rand, n int, wide bool) []*Item {
	items := make([]*Item, n)
	for i := range items {
		if rng.IntN(50) == 0 {
			continue // nil items are skipped
		}
		it := &Item{ID: fmt.Sprint(i), Server: "s", URI: fmt.Sprintf("x://%d", i), Order: rng.IntN(n) - n/2, Pinned: rng.IntN(20) == 0}
		if rng.IntN(3) > 0 {
			it.Annotations.Priority = randomPriority(rng)
		}
		if rng.IntN(10) == 0 {
			it.PriorityOverride = randomPriority(rng)
		}
		it.Annotations.Audience = [][]string{nil, nil, nil, {"user"}, {"assistant"}, {"User", "ASSISTANT"}, {"user", "robot"}, {}}[rng.IntN(8)]
		it.Annotations.LastModified = randomModified(rng, wide)
		switch r := rng.IntN(20); {
		case r == 0:
			it.ReadErr = [...]error{ErrNotFound, errTransport, fmt.Errorf("plain")}[rng.IntN(3)]
		case r == 1:
			// an empty read
		case r == 2:
			it.Contents = []Content{{URI: it.URI, MIMEType: "image/png", Blob: []byte("png"), IsBlob: true}, {URI: it.URI, MIMEType: "application/pdf", Blob: []byte("pdf"), IsBlob: true}}
		default:
			it.Contents = []Content{{URI: it.URI, MIMEType: "text/plain", Text: randomText(rng)}}
		}
		items[i] = it
	}
	return items
}

func randomPriority(rng *rand.Rand) *float64 {
	return prio([]float64{0, 0.1, 0.5, 0.5, 0.9, 1, 1.5, -0.2, math.NaN(), math.Copysign(0, -1), rng.Float64()}[rng.IntN(11)])
}

// randomText is empty, short or a few thousand bytes long.
func randomText(rng *rand.Rand) string {
	words := []string{"memory", "budget", "mémoire", "`", "```", "token", "{", "\n"}
	var b strings.Builder
	for range rng.IntN(3) * rng.IntN(400) {
		b.WriteString(words[rng.IntN(len(words))] + " ")
	}
	return b.String()
}

// randomModified is a lastModified in one of the shapes servers send, with
// equal dates to tie, or garbage; wide ones include years the sort does not
// pack (see dateBias).
func randomModified(rng *rand.Rand, wide bool) string {
	year := 1990 + rng.IntN(70)
	if wide {
		year = 1600 + rng.IntN(800)
	}
	base := time.Date(year, time.Month(1+rng.IntN(12)), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), 0, time.UTC)
	if rng.IntN(4) == 0 {
		// ties, and dates a fraction of a second apart
		return time.Date(2025, 1, 1+rng.IntN(2), 0, 0, 0, rng.IntN(3)*1e8, time.UTC).Format(time.RFC3339Nano)
	}
	if rng.IntN(3) == 0 {
		base = base.Add(time.Duration(rng.IntN(1e9)))
	}
	zone := time.FixedZone("", (rng.IntN(27)-13)*3600)
	s := base.In(zone).Format([]string{
		time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04:05.000",
		"2006-01-02T15:04:05-0700", "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02",
		"2006-01-02 15:04:05Z07:00", "2006-01-02t15:04:05z", "Jan 2 2006", "2006-01-02T15:04:05,000Z07:00",
	}[rng.IntN(12)])
	switch rng.IntN(12) {
	case 0:
		return ""
	case 1:
		return " " + s + " "
	case 2:
		return strings.ToLower(s)
	case 3:
		return s[:rng.IntN(len(s)+1)]
	}
	return s
}
