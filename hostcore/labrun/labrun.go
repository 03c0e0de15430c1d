package labrun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// The comparison lab replays turns (package lab's format) against a real
// server, once per strategy: the host strategy reads every attached
// resource through the host's cache, the tool strategy lists the server's
// tools and makes the recorded calls, both does both. What each turn
// delivered is handed to lab.Summarize.
//
// Each strategy starts cold: the first read of a resource in a strategy
// asks the server (ReadRefresh, which also stores the body), and later
// reads of it in that strategy go through the cache (ReadUse). So every
// strategy pays for its own first reads, whichever ran before, and a run
// reads the same whatever the cache held: its figures can be compared and
// kept as a golden.

// Options configures Run. The zero value, and nil, are usable.
type Options struct {
	// Strategies to run, in order; nil means lab.Strategies.
	Strategies []lab.Strategy
	// Tokens counts tokens; nil means pack.DefaultTokenCounter().
	Tokens pack.TokenCounter
	// PollInterval is the freshness comparison's; 0 means
	// DefaultPollInterval (threengram, like most servers, does not offer
	// subscriptions, so the host polls it at that interval).
	PollInterval time.Duration
	// Since measures wall time; nil means time.Since. Tests that keep a
	// golden give one that returns 0.
	Since func(time.Time) time.Duration
	// Progress, if not nil, is told after each turn of each strategy, on
	// Run's goroutine: done of total turn replays.
	Progress func(done, total int)
	// Model, when set, makes the tool and both strategies live: each turn
	// asks the model, with the tools offered, and makes the calls it asks
	// for instead of the recorded ones (see lab_live.go).
	Model chat.Model
	// Tools is how the host's consent gate decides on the calls, recorded
	// or live: "" and ToolsReadOnly offer and run only the tools the
	// server marks read-only; ToolsAsk offers all and asks Ask before a
	// call of any other; ToolsAuto runs every call.
	Tools consent.ToolPolicy
	// Ask asks the person about a call, under ToolsAsk; nil refuses the
	// calls that would need an answer.
	Ask consent.AskFunc
	// ModelName is recorded in the report of a live run.
	ModelName string
	// Source says where the turns came from ("assets/replay.jsonl"), and
	// Synthetic marks a replay that was generated, not recorded.
	Source    string
	Synthetic bool
}

// Report is what Run returns; its JSON is attachectl lab run --json.
type Report struct {
	Replay     Replay        `json:"replay"`
	Strategies []lab.Result  `json:"strategies"`
	Freshness  lab.Freshness `json:"freshness"`
}

// Replay describes the replay and what it ran against.
type Replay struct {
	Source    string `json:"source,omitempty"`
	Synthetic bool   `json:"synthetic"`
	// Note is said wherever the report is shown.
	Note     string `json:"note,omitempty"`
	Turns    int    `json:"turns"`
	Sessions int    `json:"sessions"`
	Server   string `json:"server"`
	Account  string `json:"account,omitempty"`
	// Servers are every server/account the attachments and calls were
	// replayed against (each against its own, see origins.go), and
	// Unusable the ones the replay could not use, whose attachments and
	// calls count as failures.
	Servers  []string   `json:"servers,omitempty"`
	Unusable []Unusable `json:"unusable,omitempty"`
	// Tools are the tools offered to the model (under the read-only
	// policy, those the server marks read-only), and ListingTokens what
	// their listing costs in one request. Withheld are the tools the
	// server listed but the policy does not offer.
	Tools         []string `json:"tools"`
	ListingTokens int      `json:"listingTokens"`
	Withheld      []string `json:"withheld,omitempty"`
	// ToolPolicy is the consent gate's policy for the run's calls.
	ToolPolicy consent.ToolPolicy `json:"toolPolicy"`
	// Live names the model asked, for a live run; recorded calls are
	// replayed otherwise.
	Live string `json:"live,omitempty"`
}

// SyntheticNote labels every report made from a generated replay.
const SyntheticNote = "Synthetic: the turns and their recorded tool calls were generated, and say nothing about any real model. Measure your own turns."

// Run replays turns against c under each strategy.
func Run(ctx context.Context, c *hostcore.Conn, turns []lab.Turn, opts *Options) (*Report, error) {
	o := defaults(opts)
	if len(turns) == 0 {
		return nil, fault.New(fault.KindUsage, nil, "the replay has no turn")
	}
	scope, err := c.Host().Consent().Scope(consent.ScopeOptions{Caller: consent.CallerLab, Policy: o.Tools, Ask: o.Ask})
	if err != nil {
		return nil, err
	}
	if scope.Policy() == consent.ToolsOff {
		return nil, fault.New(fault.KindUsage, nil, "tools off: the lab's tool strategies need tools; replay --strategies host alone instead")
	}
	tools, withheld, err := scope.Offer(ctx, c)
	if err != nil {
		return nil, err
	}
	offered := chat.Offered(c, tools)
	rep := &Report{Replay: replayOf(c, &o, turns, offered, withheld, scope.Policy()), Freshness: lab.ComputeFreshness(turns, o.PollInterval)}
	rep.Replay.Sessions = rep.Freshness.Sessions
	done, total := 0, len(turns)*len(o.Strategies)
	g := newOrigins(c)
	defer func() { rep.Replay.Servers, rep.Replay.Unusable = g.report() }()
	for _, s := range o.Strategies {
		run := &strategyRun{c: c, g: g, o: &o, scope: scope, strategy: s, offered: offered, listing: rep.Replay.ListingTokens, read: map[readKey]bool{}}
		if !s.Offers() {
			run.offered, run.listing = nil, 0
		}
		obs := make([]lab.Observation, 0, len(turns))
		for _, t := range turns {
			if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
				return nil, fault.New(fault.KindTimeout, err, "the replay ran out of time")
			} else if err != nil {
				return nil, fault.New(fault.KindCanceled, err, "the replay was stopped")
			}
			ob, err := run.turn(ctx, t)
			if err != nil {
				return nil, err
			}
			obs = append(obs, ob)
			done++
			if o.Progress != nil {
				o.Progress(done, total)
			}
		}
		rep.Strategies = append(rep.Strategies, lab.Summarize(s, obs))
	}
	return rep, nil
}

// defaults is opts with the defaults filled in.
func defaults(opts *Options) Options {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Strategies == nil {
		o.Strategies = lab.Strategies
	}
	if o.Tokens == nil {
		o.Tokens = pack.DefaultTokenCounter()
	}
	if o.PollInterval <= 0 {
		o.PollInterval = hostcore.DefaultPollInterval
	}
	if o.Since == nil {
		o.Since = time.Since
	}
	return o
}

// replayOf describes the run: what is replayed, against what, and which
// tools are offered under policy.
func replayOf(c *hostcore.Conn, o *Options, turns []lab.Turn, offered []chat.OfferedTool, withheld []toolcall.Tool, policy consent.ToolPolicy) Replay {
	r := Replay{Source: o.Source, Synthetic: o.Synthetic, Turns: len(turns), Server: c.Server.Name, Account: c.Account.Name,
		Tools: []string{}, ListingTokens: chat.ListingTokens(offered, o.Tokens), ToolPolicy: policy}
	for _, t := range offered {
		r.Tools = append(r.Tools, t.Tool)
	}
	for _, t := range withheld {
		r.Withheld = append(r.Withheld, t.Name)
	}
	if o.Synthetic {
		r.Note = SyntheticNote
	}
	if o.Model != nil {
		r.Live = o.ModelName
		if r.Live == "" {
			r.Live = "a model"
		}
	}
	return r
}

// strategyRun is one strategy's replay.
type strategyRun struct {
	c        *hostcore.Conn
	g        *origins // each attachment's and call's own connection
	o        *Options
	scope    *consent.Scope // the consent gate's, for the whole run
	strategy lab.Strategy
	offered  []chat.OfferedTool
	listing  int
	read     map[readKey]bool // resources this strategy has read once
	listed   bool
}

// turnState is what a turn has delivered so far.
type turnState struct {
	ob       lab.Observation
	system   int // tokens of the attached bodies
	exchange int // tokens of tool calls and results
	results  int
	context  strings.Builder // the attached bodies, rendered, for a live model
}

// turn replays one turn under the run's strategy.
func (r *strategyRun) turn(ctx context.Context, t lab.Turn) (lab.Observation, error) {
	start := time.Now()
	st := &turnState{ob: lab.Observation{Relevant: t.Relevant}}
	if r.offered != nil && !r.listed {
		st.ob.RoundTrips++ // the listing, asked once per strategy
		r.listed = true
	}
	if r.strategy.Attaches() {
		for _, k := range attachedOf(t) {
			if err := r.attach(ctx, t, k, st); err != nil {
				return lab.Observation{}, err
			}
		}
	}
	user := r.o.Tokens.Count(t.User)
	var err error
	switch {
	case !r.strategy.Offers():
		st.ob.Requests = []lab.Request{{Total: user + st.system}}
	case r.o.Model != nil:
		err = r.live(ctx, t, st, user)
	default:
		err = r.recorded(ctx, t, st, user)
	}
	if err != nil {
		return lab.Observation{}, err
	}
	st.ob.ContextTokens = st.system + st.results + r.listing*len(st.ob.Requests)
	st.ob.Wall = r.o.Since(start)
	return st.ob, nil
}

// readKey is an attached resource with its origin.
type readKey struct {
	origin lab.Origin
	uri    string
}

// attachedOf returns t's attached resources with their origins, once
// each, in order of origin and URI.
func attachedOf(t lab.Turn) []readKey {
	out := make([]readKey, len(t.Attached))
	for i, uri := range t.Attached {
		out[i] = readKey{t.Origin(i), uri}
	}
	slices.SortFunc(out, func(a, b readKey) int {
		return cmp.Or(cmp.Compare(a.origin.Server, b.origin.Server), cmp.Compare(a.origin.Account, b.origin.Account), cmp.Compare(a.uri, b.uri))
	})
	return slices.Compact(out)
}

// attach reads k's resource from its own server and account as the host
// does for a turn. A resource the server cannot give (missing, refused),
// or whose server cannot be used, does not reach the context and counts
// as a failure; a transport failure of the replay's own server, or a
// stop, ends the replay.
func (r *strategyRun) attach(ctx context.Context, t lab.Turn, k readKey, st *turnState) error {
	c := r.g.conn(k.origin, t)
	if c == nil {
		st.ob.Failed++
		return nil
	}
	mode := hostcore.ReadUse
	if !r.read[k] {
		mode = hostcore.ReadRefresh
	}
	res, err := c.Read(ctx, k.uri, mode)
	if err != nil {
		if fatal(err) && r.g.failed(ctx, k.origin, t, err) {
			return err
		}
		st.ob.Failed++
		st.ob.RoundTrips++
		return nil
	}
	uri := k.uri
	r.read[k] = true
	if res.Cache.Status == hostcore.CacheHit {
		st.ob.CacheHits++
	} else {
		st.ob.RoundTrips++
	}
	for _, ct := range res.Contents {
		st.ob.Bytes += ct.Size()
		if !ct.IsBlob {
			body := pack.RenderBody(ct.MIMEType, ct.Text)
			st.system += r.o.Tokens.Count(body)
			fmt.Fprintf(&st.context, "## %s\n\n%s\n\n", uri, body)
		}
	}
	st.ob.Deliveries = append(st.ob.Deliveries, uri)
	return nil
}

// recorded makes the turn's recorded calls: one round of calls, then the
// request that carries their results.
func (r *strategyRun) recorded(ctx context.Context, t lab.Turn, st *turnState, user int) error {
	first := lab.Request{Listing: r.listing, Total: user + st.system + r.listing}
	st.ob.Requests = []lab.Request{first}
	if len(t.ToolCalls) == 0 {
		return nil
	}
	for _, call := range t.ToolCalls {
		st.exchange += r.o.Tokens.Count(call.Name) + r.o.Tokens.Count(string(call.Arguments))
		c := r.g.conn(call.Origin, t)
		if c == nil { // its own server cannot be used: a failure, not a call on another
			st.ob.Failed++
			st.exchange += r.o.Tokens.Count("The call failed: its server could not be used.")
			continue
		}
		req := consent.ToolRequest{Turn: t.Turn, Recorded: true, Tool: toolcall.Tool{Name: call.Name}, Arguments: call.Arguments}
		if _, err := r.callTool(ctx, c, call.Origin, t, req, st); err != nil {
			return err
		}
	}
	st.ob.Requests = append(st.ob.Requests, lab.Request{Listing: r.listing, Total: first.Total + st.exchange})
	return nil
}

// callTool asks the consent gate about one call, makes it if the gate
// approves, and notes what its result delivered; it returns the text for
// the model. A call the gate does not run (a tool that is not read-only
// under the read-only policy, a denial, a tool the server does not list to
// this host, arguments that are not an object) is counted as not run. The
// call is made on c, the connection of its origin o.
func (r *strategyRun) callTool(ctx context.Context, c *hostcore.Conn, o lab.Origin, t lab.Turn, req consent.ToolRequest, st *turnState) (string, error) {
	d := r.scope.Decide(ctx, c, req)
	st.ob.Calls = append(st.ob.Calls, lab.Call{Tool: d.Tool, Run: d.Run, Decision: d.String()})
	if !d.Run {
		if err := ctx.Err(); err != nil {
			return "", fault.New(fault.KindCanceled, err, "the replay was stopped")
		}
		text := d.ModelText()
		st.exchange += r.o.Tokens.Count(text)
		return text, nil
	}
	st.ob.RoundTrips++
	res, err := c.CallTool(ctx, d)
	if err != nil {
		if fatal(err) && r.g.failed(ctx, o, t, err) {
			return "", err
		}
		st.ob.Failed++
		text := "The call failed: " + fault.Message(err) + "."
		st.exchange += r.o.Tokens.Count(text)
		return text, nil
	}
	text := chat.ToolResultText(res, chat.DefaultMaxToolResultBytes)
	n := r.o.Tokens.Count(text)
	st.exchange += n
	st.results += n
	st.ob.Bytes += len(text)
	st.ob.HeldBack = append(st.ob.HeldBack, res.HeldResources()...)
	if res.IsError {
		st.ob.Failed++
		return text, nil
	}
	data := []byte(res.Structured)
	if len(data) == 0 {
		data = []byte(res.Text)
	}
	st.ob.Deliveries = append(st.ob.Deliveries, lab.Carried(data)...)
	st.ob.Deliveries = append(st.ob.Deliveries, res.SentResources()...)
	return text, nil
}

// fatal reports whether err ends a replay rather than a turn: the
// server could not be reached, or the replay was stopped.
func fatal(err error) bool {
	var he *fault.Error
	if !errors.As(err, &he) {
		return true
	}
	switch he.Kind() {
	case fault.KindTransport, fault.KindTimeout, fault.KindCanceled, fault.KindUnauthorized:
		return true
	}
	return false
}

// Table renders a report's strategies as a fixed-width table. Reach,
// item reach and duplicates carry their 95% interval, "82.1% (78.4–85.3)";
// FAILURES counts the failed reads and calls, an attachment whose own
// server could not be used among them.
func Table(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-8s %6s %-19s %-19s %-19s %12s %9s %12s %9s %10s %7s %10s %8s %7s\n", "STRATEGY", "TURNS", "REACH (95% CI)",
		"ITEMREACH (95% CI)", "DUPLICATES (95% CI)", "LISTING/REQ", "LISTING%", "CONTEXT/TURN", "ROUNDTRIP", "BYTES", "WALLMS",
		"CACHEHITS", "FAILURES", "NOTRUN")
	for _, s := range rep.Strategies {
		fmt.Fprintf(&b, "%-8s %6d %-19s %-19s %-19s %12.0f %8.1f%% %12.0f %9d %10d %7d %10d %8d %7d\n", s.Strategy, s.Turns,
			Rate(s.Reach, s.ReachInterval), Rate(s.ItemReach, s.ItemReachInterval), Rate(s.DuplicateRate, s.DuplicateInterval),
			s.ListingTokensPerRequest, 100*s.ListingShare, s.ContextTokensPerTurn, s.RoundTrips, s.Bytes, s.WallMs, s.CacheHits,
			s.Failures, s.NotRun)
	}
	for _, line := range NotRun(rep) {
		b.WriteString(line + "\n")
	}
	for _, line := range HeldBack(rep) {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// Rate renders a rate with its 95% interval: "82.1% (78.4–85.3)".
func Rate(v float64, iv lab.Interval) string {
	return fmt.Sprintf("%.1f%% (%s)", 100*v, iv.Percent())
}

// HeldBack says, one line per strategy, which resources tool results
// gave for the person only, so that the host did not send them to the
// model: "tool: held back from the model (for the person only): 1
// resource, test://notes/plain.txt".
func HeldBack(rep *Report) []string {
	var out []string
	for _, s := range rep.Strategies {
		if len(s.HeldBack) > 0 {
			out = append(out, fmt.Sprintf("%s: held back from the model (for the person only): %s, %s", s.Strategy,
				pack.Quantity(len(s.HeldBack), "resource"), strings.Join(s.HeldBack, ", ")))
		}
	}
	return out
}

// NotRun says, one line per strategy, tool and reason, which calls the
// consent gate did not run: "tool: 1 call of archive not run: not
// read-only".
func NotRun(rep *Report) []string {
	var out []string
	for _, s := range rep.Strategies {
		for _, c := range s.Calls {
			if !c.Run {
				out = append(out, fmt.Sprintf("%s: %s of %s %s", s.Strategy, pack.Quantity(c.Calls, "call"), c.Tool, c.Decision))
			}
		}
	}
	return out
}
