package pack

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// DefaultBudget is the token budget Rank packs into when
// RankOptions.Budget is zero or less.
const DefaultBudget = 8000

// DefaultPriority is the priority of an item that neither the person nor the
// server gave one: the middle of the 0..1 scale, so an unannotated item ranks
// below what a server marked important and above what it marked optional.
const DefaultPriority = 0.5

// Item is one attachment as the ranker sees it. Rank reads items and never
// changes them.
type Item struct {
	// ID is the attachment's stable identity; decisions refer to it.
	ID string
	// Server is the configured name of the server the item was read from.
	Server string
	// Account is the account the item was read with, if the server has
	// several.
	Account string
	// URI is the resource's URI.
	URI string
	// Annotations come from the resource listing or, for a resource read
	// through a template, from the template.
	Annotations Annotations
	// PriorityOverride is the person's priority for this attachment; when
	// set it wins over Annotations.Priority.
	PriorityOverride *float64
	// Pinned items rank before every unpinned one.
	Pinned bool
	// Order is the attach order: an earlier attachment has a smaller Order.
	// It breaks the last ties.
	Order int
	// Contents is the body, one entry per content of the read, in the
	// order the server sent them.
	Contents []Content
	// Counts, if set, keeps what the item's body costs between processes
	// (the host binds it to the body's cache entry): a counter with a Name
	// takes its count from there, when one is kept of exactly the text it
	// would count, instead of counting, and keeps there what it counts.
	// Rank changes nothing else through it.
	Counts CountStore
	// ReadErr says why the item could not be read; Contents is then nil.
	// Its kind, when it has one (see KindedError), goes into the
	// decision's reason.
	ReadErr error
}

// Verdict is what Rank decided for an item.
type Verdict string

// The verdicts, one per item.
const (
	// VerdictIncluded: the item goes into the model's context.
	VerdictIncluded Verdict = "included"
	// VerdictDroppedBudget: the item did not fit in what was left of the
	// budget.
	VerdictDroppedBudget Verdict = "dropped-budget"
	// VerdictHeldAudience: the item's audience does not include the
	// assistant; it is shown to the person and never sent to the model.
	VerdictHeldAudience Verdict = "held-audience"
	// VerdictUnreadable: the item could not be read, or the read returned
	// nothing; there is no body to send.
	VerdictUnreadable Verdict = "unreadable"
)

// Decision is the verdict on one item and why.
type Decision struct {
	// Item is the item decided on (the caller's pointer).
	Item *Item
	// Rank is the item's 1-based position in rank order.
	Rank int
	// Verdict is what was decided.
	Verdict Verdict
	// Priority is the effective priority the item ranked with: the
	// person's override, else the annotation, else DefaultPriority,
	// clamped to 0..1.
	Priority float64
	// Tokens is what the item costs in the assembled context (its header
	// and body, see Section.Markdown), for included and dropped items; 0
	// for held and unreadable ones.
	Tokens int
	// Reason is a sentence a person can read, such as "included: 412
	// tokens" or "dropped: needs 900 tokens, 350 left of 8,000".
	Reason string
}

// Packing is the outcome of Rank.
type Packing struct {
	// Decisions holds one decision per item, in rank order.
	Decisions []Decision
	// Budget is the token budget packed into.
	Budget int
	// Used is the sum of the included items' tokens.
	Used int
	// Exceeded is how many tokens over Budget the included items go; only
	// items of priority 1 (effectively required) can cause it, because they
	// are included even when they do not fit. It is 0 when the budget holds.
	Exceeded int
	// Vision is the image rules the items were measured with, which
	// Assemble renders by (the zero value: EitherVision).
	Vision Vision
}

// vision is p.Vision, or EitherVision when it was not set.
func (p Packing) vision() Vision {
	if p.Vision.Name == "" {
		return EitherVision()
	}
	return p.Vision
}

// RankOptions configures Rank. The zero value, or nil, packs into
// DefaultBudget with DefaultTokenCounter.
type RankOptions struct {
	// Budget is the token budget; zero or less means DefaultBudget.
	Budget int
	// Tokens counts tokens; nil means DefaultTokenCounter().
	Tokens TokenCounter
	// Vision is how the model takes images: an image counts by its
	// estimate, and one past its limits is described instead. Nil means
	// EitherVision(), for a context whose model is not chosen yet.
	Vision *Vision
}

// meter is what items are measured with: a token counter and the image
// rules.
type meter struct {
	counter TokenCounter
	vision  *Vision
}

// meterOf is opts' meter, with the defaults for what it leaves out.
func meterOf(opts *RankOptions) meter {
	var m meter
	if opts != nil {
		m.counter, m.vision = opts.Tokens, opts.Vision
	}
	if m.counter == nil {
		m.counter = DefaultTokenCounter()
	}
	if m.vision == nil {
		v := EitherVision()
		m.vision = &v
	}
	return m
}

// Rank orders items and packs them into a token budget. This is the host's
// memory policy: what the model "remembers" is what survives it.
//
// Order: pinned items first, then effective priority (highest first), then
// lastModified (newest first; absent or unparsable counts as oldest), then
// Order (earliest attached first). The sort is stable, so items equal on all
// four keep their order in items.
//
// Packing is greedy in rank order. An unreadable item, or one whose read
// returned no contents, is unreadable, whatever its audience. An item whose
// audience is given and does not include "assistant" is held back. Every other item is included if
// its tokens fit in what is left of the budget, and dropped otherwise (later,
// smaller items may still fit). An item of effective priority 1 is
// effectively required: it is included even when it does not fit, and
// Packing.Exceeded and its reason say by how much the budget is exceeded.
//
// Rank does not read: it packs the bodies it is given; nil items are
// skipped. It is safe to call from several goroutines as long as no one
// changes the items meanwhile. A large ranking counts tokens on several
// goroutines, as TokenCounter allows. Rank keeps nothing of the items
// once it returns: with the default counter, ranking bodies counted before
// costs a hash of each (the token memo, which holds no text) and a parse
// of its date. A screen that ranks one set again and again uses a Ranker,
// which remembers what it measured of each item for as long as it is
// given it.
func Rank(items []*Item, opts *RankOptions) Packing {
	budget := DefaultBudget
	if opts != nil && opts.Budget > 0 {
		budget = opts.Budget
	}
	m := meterOf(opts)

	w := scratchPool.Get().(*rankScratch)
	w.keys = measure(w.keys[:0], items, m)
	w.order, w.ranked = w.order[:0], w.ranked[:0]
	sortKeys(w.keys, w)
	p := decide(w.ranked, budget)
	p.Vision = *m.vision
	clear(w.keys) // they point at the caller's items
	clear(w.order)
	clear(w.ranked)
	scratchPool.Put(w)
	return p
}

// rankScratch is what one Rank works in: the keys, the sort's arrays and
// the keys in rank order. Rank keeps them in scratchPool for the next ranking,
// so that ranking 10,000 items allocates little more than its decisions;
// they are cleared before they go back.
type rankScratch struct {
	keys   []rankKey
	order  []rankOrder
	buf    []radixKey
	ranked []*rankKey
}

var scratchPool = sync.Pool{New: func() any { return new(rankScratch) }}

// decide packs keys, in rank order, into budget (zero or less:
// DefaultBudget). It writes each decision once, field by field, packing
// as it goes: the decisions are 640 KB for 10,000 items, and a second pass
// over them, or copying whole structs (a bulk write barrier while the
// collector runs), cost about a tenth of decide in a profile.
func decide(ranked []*rankKey, budget int) Packing {
	if budget <= 0 {
		budget = DefaultBudget
	}
	p := Packing{Decisions: make([]Decision, len(ranked)), Budget: budget}
	reasons := packReasons{ofBudget: " left of " + grouped(p.Budget)}
	for i, k := range ranked {
		d := &p.Decisions[i]
		d.Item, d.Rank, d.Priority, d.Tokens = k.item, i+1, k.priority, k.tokens
		if k.verdict != "" {
			d.Verdict, d.Reason = k.verdict, k.reason
			continue
		}
		p.pack(d, &reasons)
	}
	p.Exceeded = max(p.Used-p.Budget, 0)
	return p
}

// rankKey is an item with all Rank needs to know of it, worked out once.
type rankKey struct {
	item  *Item
	index int // in the caller's slice: the last tie, for a stable order

	pinned   bool
	priority float64
	sec      int64 // lastModified, parsed: Unix seconds, or math.MinInt64 when absent or unparsable
	nsec     int32 // and nanoseconds
	order    int

	// verdict and reason are set when the item cannot be sent whatever
	// the budget; tokens, when it can.
	verdict Verdict
	reason  string
	tokens  int
	// memo is what a Ranker keeps of the item, or nil.
	memo *measured
}

// parallelAbove is the number of items above which measure spreads its work
// over the CPUs; below it, starting goroutines costs more than it saves.
const parallelAbove = 512

// measure appends the keys of the items to keys, skipping nil items, and
// works them out. Finding a count in the token memo means hashing the
// item's fields, and a body not seen before must be counted, so large
// rankings split the work over the CPUs (TokenCounter is safe for
// concurrent use).
func measure(keys []rankKey, items []*Item, m meter) []rankKey {
	keys = slices.Grow(keys, len(items))
	for i, it := range items {
		if it != nil {
			keys = append(keys, rankKey{item: it, index: i})
		}
	}
	measureSpread(keys, m)
	return keys
}

// measureSpread measures every key, over several CPUs when there are many.
func measureSpread(keys []rankKey, m meter) {
	measureAll := func(keys []rankKey) {
		for i := range keys {
			keys[i].measure(m)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(keys)/parallelAbove)
	if workers < 2 {
		measureAll(keys)
		return
	}
	var wg sync.WaitGroup
	for part := range slices.Chunk(keys, (len(keys)+workers-1)/workers) {
		wg.Go(func() { measureAll(part) })
	}
	wg.Wait()
}

// measure works out k from its item: the keys it sorts by, its verdict
// when it cannot be sent, and else its tokens.
func (k *rankKey) measure(m meter) {
	it := k.item
	k.pinned, k.priority, k.order = it.Pinned, effectivePriority(it), it.Order
	k.verdict, k.reason = screen(it)
	k.date(it)
	if k.verdict == "" {
		k.tokens = itemTokens(it, m)
	}
}

// date parses the lastModified of it into k.
func (k *rankKey) date(it *Item) {
	k.sec, k.nsec = math.MinInt64, 0
	if t, ok := parseModified(it.Annotations.LastModified); ok {
		k.sec, k.nsec = t.Unix(), int32(t.Nanosecond())
	}
}

// screen returns the verdict and reason of an item that cannot be sent
// whatever the budget, or "" for a candidate.
func screen(it *Item) (Verdict, string) {
	switch {
	case it.ReadErr != nil:
		// Whatever the audience, there is nothing to show or send.
		return VerdictUnreadable, "unreadable: " + errorKind(it.ReadErr)
	case len(it.Contents) == 0:
		// An empty read is a protocol error, never an empty document:
		// sending a bare header would have the model reason about a body
		// it never saw.
		return VerdictUnreadable, "unreadable: no contents"
	case !forAssistant(it.Annotations.Audience):
		if a := it.Annotations.Audience; len(a) == 1 && a[0] == "user" {
			return VerdictHeldAudience, heldForUser // the one audience MCP's roles leave: no string to build
		}
		return VerdictHeldAudience, "held back: audience is " + strings.Join(it.Annotations.Audience, ", ") + " only"
	}
	return "", ""
}

// heldForUser is the reason of an item held back for the person alone.
const heldForUser = "held back: audience is user only"

// pack decides d, a candidate, greedily: it goes in if it fits in what is
// left of the budget.
func (p *Packing) pack(d *Decision, reasons *packReasons) {
	left := max(p.Budget-p.Used, 0)
	switch {
	case d.Tokens <= left:
		d.Verdict, d.Reason = VerdictIncluded, reasons.included(d.Tokens)
		p.Used += d.Tokens
	case d.Priority >= 1:
		d.Verdict = VerdictIncluded
		p.Used += d.Tokens
		d.Reason = "included over budget: priority 1 is required; needs " + Quantity(d.Tokens, "token") +
			", " + grouped(left) + reasons.ofBudget + "; budget exceeded by " + Quantity(p.Used-p.Budget, "token")
	default:
		d.Verdict, d.Reason = VerdictDroppedBudget, reasons.dropped(d.Tokens, left)
	}
}

// effectivePriority is the override, else the annotation, else
// DefaultPriority, clamped to 0..1 (a NaN counts as absent).
func effectivePriority(it *Item) float64 {
	p := DefaultPriority
	switch {
	case it.PriorityOverride != nil && !math.IsNaN(*it.PriorityOverride):
		p = *it.PriorityOverride
	case it.Annotations.Priority != nil && !math.IsNaN(*it.Annotations.Priority):
		p = *it.Annotations.Priority
	}
	return min(max(p, 0), 1)
}

// forAssistant reports whether an audience lets an item reach the model:
// no audience given, or one that names the assistant.
func forAssistant(audience []string) bool {
	return len(audience) == 0 || slices.ContainsFunc(audience, func(a string) bool {
		return strings.EqualFold(a, "assistant")
	})
}

// KindedError is an error that says what kind of failure it is, in words a
// person can act on ("not found", "unauthorized"), as hostcore's *Error
// does. The reason of an unreadable item names the kind of the first error
// in its ReadErr's chain that is one.
type KindedError interface {
	error
	// KindName is the kind in words; "" when the error has none.
	KindName() string
}

// errorKind returns the kind of err for a person to read, or "error" when
// nothing in its chain has one. The message itself is not used: it may
// carry server text that has no place in a verdict.
func errorKind(err error) string {
	var k KindedError
	if errors.As(err, &k) && k.KindName() != "" {
		return k.KindName()
	}
	return "error"
}

// Quantity says n units in words, with the digits grouped by commas and
// the unit in the plural unless n is 1: "1 token", "8,000 tokens",
// "12 bytes". unit is a singular noun that takes an "s".
func Quantity(n int, unit string) string {
	var b [32]byte
	return string(appendQuantity(b[:0], n, unit))
}

// appendQuantity appends Quantity(n, unit) to b.
func appendQuantity(b []byte, n int, unit string) []byte {
	if n == 1 {
		return append(append(b, "1 "...), unit...)
	}
	b = append(appendGrouped(b, n), ' ')
	return append(append(b, unit...), 's')
}

// grouped formats n with commas between groups of three digits: 12,345.
func grouped(n int) string {
	if n > -1000 && n < 1000 {
		return strconv.Itoa(n)
	}
	var b [32]byte
	return string(appendGrouped(b[:0], n))
}

// appendGrouped appends grouped(n) to b.
func appendGrouped(b []byte, n int) []byte {
	var digits [24]byte
	s := strconv.AppendInt(digits[:0], int64(n), 10)
	if n < 0 {
		b, s = append(b, '-'), s[1:]
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}

// ForAssistant reports whether content of this audience may reach the
// model: no audience given, or one that names the assistant. It is the
// rule that holds back an attachment for the person alone, and the
// content of a tool result alike.
func ForAssistant(audience []string) bool { return forAssistant(audience) }
