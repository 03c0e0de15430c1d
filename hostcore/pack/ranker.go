package pack

import (
	"bytes"
	"slices"
	"sync"
)

// Ranker ranks one set of attachments again and again, as a screen does
// while a person changes the budget, a pin or a priority. It remembers, by
// item ID, what it measured of each item (its tokens and its parsed
// lastModified), so ranking again after a pin or a priority changed costs a
// sort and a pass, and Repack, for a new budget alone, costs the pass. It
// never reads: it packs the bodies it is given, like Rank.
//
// An item's measure is reused only while the fields it was taken from (the
// server, account, uri, lastModified and every content's uri, type and body)
// are the same strings; a changed body is counted again. Comparing them is
// cheap because a body the caller kept is the same string, not a copy.
//
// What a Ranker remembers is its own, and only of the items of its last
// ranking: it forgets an item as soon as a ranking no longer gives it, and
// all of them with the Ranker. Two Rankers, or a Ranker and Rank, share
// nothing but the token counter's memo, which holds counts, not text.
//
// A Ranker is safe for concurrent use; the items passed to Rank must not be
// changed while a call is running (make a changed copy instead: the ID is
// what the Ranker remembers).
type Ranker struct {
	meter meter

	mu     sync.Mutex
	known  map[string]*measured // by Item.ID
	gen    int                  // counts calls to Rank
	ranked []*rankKey           // the last ranking's keys, in rank order
	last   []*Item              // the items of the last ranking

	// Buffers kept from one ranking to the next, so that ranking again
	// allocates little: the keys (the last ranking's, which ranked points
	// into, until the next ranking replaces them) and sortFromLast's.
	keys, spare []rankKey
	slots, rest []*rankKey
	order       []rankOrder
	buf         []radixKey
}

// measured is what a Ranker keeps of an item between rankings: its key,
// whose tokens and date were measured from from, and the last Rank that
// was given it.
type measured struct {
	from itemText
	key  rankKey
	gen  int
	pos  int // in the last ranking
}

// itemText is the part of an item its tokens and date are worked out from.
type itemText struct {
	server, account, uri, lastModified string
	contents                           []Content
}

func textOf(it *Item) itemText {
	return itemText{it.Server, it.Account, it.URI, it.Annotations.LastModified, slices.Clone(it.Contents)}
}

// same reports whether it renders as t did. Strings compare in constant
// time when they share their bytes, as a kept body does.
func (t *itemText) same(it *Item) bool {
	if t.server != it.Server || t.account != it.Account || t.uri != it.URI ||
		t.lastModified != it.Annotations.LastModified || len(t.contents) != len(it.Contents) {
		return false
	}
	for i, c := range it.Contents {
		k := t.contents[i]
		if k.URI != c.URI || k.MIMEType != c.MIMEType || k.IsBlob != c.IsBlob || k.Text != c.Text || len(k.Blob) != len(c.Blob) {
			return false
		}
		// An image's size in pixels is counted: other bytes of the same
		// length may be another size (a kept body compares at once, being
		// the same bytes).
		if c.IsBlob && imageType(c.MIMEType) && !bytes.Equal(k.Blob, c.Blob) {
			return false
		}
	}
	return true
}

// NewRanker returns a Ranker counting tokens with opts.Tokens (nil:
// DefaultTokenCounter) and images by opts.Vision (nil: EitherVision);
// opts.Budget is not used, each call names its budget.
func NewRanker(opts *RankOptions) *Ranker {
	return &Ranker{known: map[string]*measured{}, meter: meterOf(opts)}
}

// Rank is Rank(items) under budget (zero or less: DefaultBudget), reusing
// what this Ranker measured of the items before. It forgets the items that
// are no longer given.
func (r *Ranker) Rank(items []*Item, budget int) Packing {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	// The keys are built in the spare buffer: the last ranking's keys are
	// still read, through r.ranked, until sortFromLast replaces it.
	keys := slices.Grow(r.spare[:0], len(items))
	var fresh []int // indexes in keys of the items to measure
	for i, it := range items {
		if it == nil {
			continue
		}
		m := r.known[it.ID]
		if m == nil || !m.from.same(it) {
			keys = append(keys, rankKey{item: it, index: i})
			fresh = append(fresh, len(keys)-1)
			continue
		}
		k := m.key
		k.item, k.index, k.memo = it, i, m
		k.pinned, k.priority, k.order = it.Pinned, effectivePriority(it), it.Order
		if v, reason := screen(it); v != k.verdict || v != "" {
			k.verdict, k.reason = v, reason // the audience or the error may have changed
			if v == "" {
				k.tokens = itemTokens(it, r.meter) // was not counted: count it now
			}
		}
		m.key, m.gen = k, r.gen
		keys = append(keys, k)
	}
	measureKeys(keys, fresh, r.meter)
	for _, i := range fresh {
		if k := &keys[i]; k.item.ID != "" {
			k.memo = &measured{from: textOf(k.item), key: *k, gen: r.gen, pos: len(r.ranked)}
			r.known[k.item.ID] = k.memo
		}
	}
	if len(r.known) > len(keys) {
		for id, m := range r.known {
			if m.gen != r.gen {
				delete(r.known, id)
			}
		}
	}
	r.ranked = r.sortFromLast(keys)
	clear(r.keys) // the old keys point at items that may be gone
	r.keys, r.spare = keys, r.keys
	clear(r.last) // past the new length too: the old items would stay alive
	r.last = append(r.last[:0], items...)
	return r.decide(budget)
}

// decide packs the last ranking into budget.
func (r *Ranker) decide(budget int) Packing {
	p := decide(r.ranked, budget)
	p.Vision = *r.meter.vision
	return p
}

// sortFromLast sorts keys into rank order, starting from the last
// ranking's order: after a pin or a priority changed, only a few keys are
// out of place, and the sort finds the rest already in order. The result
// is the same as from any start, since the keys' last tie is their index.
func (r *Ranker) sortFromLast(keys []rankKey) []*rankKey {
	slots := slices.Grow(r.slots[:0], len(r.ranked))[:len(r.ranked)]
	clear(slots)
	rest := r.rest[:0]
	for i := range keys {
		k := &keys[i]
		if m := k.memo; m != nil && m.pos < len(slots) && slots[m.pos] == nil {
			slots[m.pos] = k
		} else {
			rest = append(rest, k) // new, or without an ID
		}
	}
	order, wide := slices.Grow(r.order[:0], len(keys)), false
	add := func(k *rankKey) {
		o, packed := orderOf(k)
		order, wide = append(order, o), wide || !packed
	}
	for _, k := range slots {
		if k != nil {
			add(k)
		}
	}
	for _, k := range rest {
		add(k)
	}
	ranked, buf := sortOrder(order, wide, slices.Grow(r.ranked[:0], len(keys)), r.buf)
	for i, k := range ranked {
		if k.memo != nil {
			k.memo.pos = i
		}
	}
	clear(slots)
	clear(rest)
	clear(order) // the buffers are kept for the next ranking, not what they point to
	r.slots, r.rest, r.order, r.buf = slots, rest, order, buf
	return ranked
}

// Repack packs items under a new budget. When they are the items of the
// last Rank (the same pointers, in the same order), only the verdicts on
// the budget move: nothing is measured or sorted again. Other items (a
// ranking of other goroutines came in between) are ranked, as Rank does.
func (r *Ranker) Repack(items []*Item, budget int) Packing {
	r.mu.Lock()
	if slices.Equal(items, r.last) {
		defer r.mu.Unlock()
		return r.decide(budget)
	}
	r.mu.Unlock()
	return r.Rank(items, budget)
}

// measureKeys measures the keys at the given indexes, spreading a large
// batch over the CPUs as measure does.
func measureKeys(keys []rankKey, at []int, m meter) {
	if len(at) == len(keys) {
		measureSpread(keys, m)
		return
	}
	for _, i := range at {
		keys[i].measure(m)
	}
}
