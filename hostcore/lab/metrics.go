package lab

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Strategy is how a replay delivers data to the model.
type Strategy string

// The strategies.
const (
	// Host attaches; no tools are offered.
	Host Strategy = "host"
	// Tool offers the tools and makes the recorded calls; nothing is
	// attached.
	Tool Strategy = "tool"
	// Both attaches and offers the tools.
	Both Strategy = "both"
)

// Strategies are every strategy, in report order.
var Strategies = []Strategy{Host, Tool, Both}

// ParseStrategies reads a comma-separated list such as "host,tool".
func ParseStrategies(s string) ([]Strategy, error) {
	var out []Strategy
	for _, w := range strings.Split(s, ",") {
		st := Strategy(strings.TrimSpace(strings.ToLower(w)))
		if !slices.Contains(Strategies, st) {
			return nil, fmt.Errorf("strategy %q: use host, tool or both", strings.TrimSpace(w))
		}
		if !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	return out, nil
}

// Offers reports whether s offers tools, and Attaches whether it attaches.
func (s Strategy) Offers() bool   { return s == Tool || s == Both }
func (s Strategy) Attaches() bool { return s == Host || s == Both }

// Observation is what one strategy delivered in one turn, as the replay
// saw it against the server.
type Observation struct {
	// Relevant is the turn's ground truth.
	Relevant []string
	// Deliveries lists each resource whose data reached the context, once
	// per delivery: an attached body that was read, and each tool result
	// that carried it. A resource delivered twice in a turn makes the turn
	// a duplicate.
	Deliveries []string
	// Requests is each request to the model the turn needed: one, and one
	// more after a round of tool calls.
	Requests []Request
	// ContextTokens is what the strategy put before the model in the turn:
	// attached bodies, tool results and the listing of every request.
	ContextTokens int
	// RoundTrips counts requests to the server (reads not answered by the
	// cache, tool listings, tool calls); CacheHits the reads the cache
	// answered; Bytes the bytes of bodies and results delivered.
	RoundTrips int
	CacheHits  int
	Bytes      int
	Wall       time.Duration
	// Failed counts tool calls and reads that failed.
	Failed int
	// Calls are the turn's tool calls as the host's consent gate decided
	// on them, run or not.
	Calls []Call
	// HeldBack lists each resource a tool result embedded or linked for
	// the person only (audience user), by uri: the host showed it and did
	// not send it to the model, so it did not reach the context.
	HeldBack []string
}

// Call is one tool call of a turn, as the consent gate decided on it.
type Call struct {
	Tool string
	Run  bool
	// Decision says who or what approved it, or why it was not run, as
	// the host words it ("ran: read-only", "not run: not read-only").
	Decision string
}

// CallTally counts a strategy's calls of one tool with one decision.
type CallTally struct {
	Tool     string `json:"tool"`
	Run      bool   `json:"run"`
	Decision string `json:"decision"`
	Calls    int    `json:"calls"`
}

// Request is one request's tokens: the tool listing's, and the whole.
type Request struct {
	Listing int
	Total   int
}

// Reached returns the relevant resources that reached the context.
func (o Observation) Reached() []string {
	var out []string
	for _, r := range o.Relevant {
		if slices.Contains(o.Deliveries, r) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// Duplicate reports whether some data arrived twice in the turn.
func (o Observation) Duplicate() bool {
	seen := map[string]bool{}
	for _, d := range o.Deliveries {
		if seen[d] {
			return true
		}
		seen[d] = true
	}
	return false
}

// Result is a strategy's figures over a replay. Rates are fractions
// between 0 and 1.
type Result struct {
	Strategy Strategy `json:"strategy"`
	Turns    int      `json:"turns"`
	// RelevantTurns counts the turns that have relevant data, and
	// RelevantItems their relevant resources: the denominators of Reach
	// and ItemReach. With none, both reaches are 1 (nothing was missed).
	RelevantTurns int `json:"relevantTurns"`
	RelevantItems int `json:"relevantItems"`
	// Reach is the share of relevant turns where all of the relevant data
	// reached the context; ItemReach the share of relevant items.
	Reach     float64 `json:"reach"`
	ItemReach float64 `json:"itemReach"`
	// DuplicateRate is the share of turns where the same data arrived
	// twice.
	DuplicateRate float64 `json:"duplicateRate"`
	// ReachInterval, ItemReachInterval and DuplicateInterval are the 95%
	// Wilson score intervals of the three rates, over the same
	// denominators: on a few hundred turns a difference between strategies
	// inside them is noise.
	ReachInterval     Interval `json:"reachInterval"`
	ItemReachInterval Interval `json:"itemReachInterval"`
	DuplicateInterval Interval `json:"duplicateInterval"`
	// ListingTokensPerRequest is the tool listing's tokens in each request
	// (averaged over requests), ListingShare the listing's share of all
	// the tokens of the requests.
	ListingTokensPerRequest float64 `json:"listingTokensPerRequest"`
	ListingShare            float64 `json:"listingShare"`
	// RequestTokensPerRequest is a request's tokens, averaged.
	RequestTokensPerRequest float64 `json:"requestTokensPerRequest"`
	ContextTokensPerTurn    float64 `json:"contextTokensPerTurn"`
	Requests                int     `json:"requests"`
	RoundTrips              int     `json:"roundTrips"`
	Bytes                   int     `json:"bytes"`
	WallMs                  int64   `json:"wallMs"`
	CacheHits               int     `json:"cacheHits"`
	// Failures counts the reads and tool calls that failed, and an
	// attachment whose own server or account could not be used (see
	// labrun); FailedTurns the turns with at least one.
	Failures    int `json:"failures"`
	FailedTurns int `json:"failedTurns"`
	// NotRun counts the tool calls the host did not run (a tool that is
	// not read-only under the read-only policy, a denial, a tool the
	// server does not list), and Calls tallies every call by tool and
	// decision, run or not, in order of tool and decision.
	NotRun int         `json:"notRun"`
	Calls  []CallTally `json:"calls,omitempty"`
	// HeldBack lists, once each, the resources that tool results gave
	// for the person only, which the host did not send to the model.
	HeldBack []string `json:"heldBack,omitempty"`
}

// Summarize computes a strategy's figures from its observations, one per
// turn.
func Summarize(s Strategy, obs []Observation) Result {
	r := Result{Strategy: s, Turns: len(obs)}
	var reached, reachedItems, dups, listing, total, ctx int
	var wall time.Duration
	for _, o := range obs {
		got := len(o.Reached())
		want := len(uniq(o.Relevant))
		if want > 0 {
			r.RelevantTurns++
			r.RelevantItems += want
			reachedItems += got
			if got == want {
				reached++
			}
		}
		if o.Duplicate() {
			dups++
		}
		for _, q := range o.Requests {
			listing += q.Listing
			total += q.Total
		}
		r.Requests += len(o.Requests)
		ctx += o.ContextTokens
		r.RoundTrips += o.RoundTrips
		r.CacheHits += o.CacheHits
		r.Bytes += o.Bytes
		r.Failures += o.Failed
		if o.Failed > 0 {
			r.FailedTurns++
		}
		wall += o.Wall
		for _, c := range o.Calls {
			r.tally(c)
		}
		r.HeldBack = append(r.HeldBack, o.HeldBack...)
	}
	r.HeldBack = uniq(r.HeldBack)
	r.Reach = ratio(reached, r.RelevantTurns, 1)
	r.ItemReach = ratio(reachedItems, r.RelevantItems, 1)
	r.DuplicateRate = ratio(dups, r.Turns, 0)
	r.ReachInterval = Wilson(reached, r.RelevantTurns)
	r.ItemReachInterval = Wilson(reachedItems, r.RelevantItems)
	r.DuplicateInterval = Wilson(dups, r.Turns)
	r.ListingTokensPerRequest = ratio(listing, r.Requests, 0)
	r.ListingShare = ratio(listing, total, 0)
	r.RequestTokensPerRequest = ratio(total, r.Requests, 0)
	r.ContextTokensPerTurn = ratio(ctx, r.Turns, 0)
	r.WallMs = wall.Milliseconds()
	return r
}

// tally counts c among r's calls.
func (r *Result) tally(c Call) {
	if !c.Run {
		r.NotRun++
	}
	i, found := slices.BinarySearchFunc(r.Calls, c, func(t CallTally, c Call) int {
		return cmp.Or(cmp.Compare(t.Tool, c.Tool), cmp.Compare(t.Decision, c.Decision))
	})
	if !found {
		r.Calls = slices.Insert(r.Calls, i, CallTally{Tool: c.Tool, Run: c.Run, Decision: c.Decision})
	}
	r.Calls[i].Calls++
}

// ratio is n/d, or empty when d is 0.
func ratio(n, d int, empty float64) float64 {
	if d == 0 {
		return empty
	}
	return float64(n) / float64(d)
}

// uniq returns the distinct values of s, in the order first seen.
func uniq(s []string) []string {
	var out []string
	if len(s) <= 16 { // a scan costs less than a map
		for _, v := range s {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(s))
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
