package pack

import (
	"cmp"
	"math"
	"slices"
)

// sortKeys appends keys, in rank order, to w.ranked, using w.order
// (appended to) and w.buf to sort them.
func sortKeys(keys []rankKey, w *rankScratch) {
	wide := false
	for i := range keys {
		o, packed := orderOf(&keys[i])
		w.order, wide = append(w.order, o), wide || !packed
	}
	w.ranked, w.buf = sortOrder(w.order, wide, w.ranked, w.buf)
}

// rankOrder is a key's place in rank order, packed for sorting: the keys
// compared side by side in one array of 32-byte values, in the order
// compareOrder reads them, instead of behind pointers.
type rankOrder struct {
	first uint64 // pinned (the top bit), then priority: greater ranks higher
	date  uint64 // lastModified (see packDate): greater ranks higher; 0 when undated
	order int    // the attach order: smaller ranks higher
	key   *rankKey
}

// dateBias is 2^33 seconds, about 272 years: packDate packs the dates from
// 1698 to 2242 into 64 bits, 34 for the second and 30 for the nanosecond.
const dateBias = 1 << 33

// packDate packs a date (Unix seconds and nanoseconds) into an integer that
// orders as the date does, above 0 (undated); ok is false for a date
// outside the years it packs (see dateBias).
func packDate(sec int64, nsec int32) (packed uint64, ok bool) {
	if sec <= -dateBias || sec >= dateBias {
		return 0, sec == math.MinInt64
	}
	return uint64(sec+dateBias)<<30 | uint64(nsec), true
}

func orderOf(k *rankKey) (o rankOrder, packed bool) {
	// A priority is in 0..1 and never -0 (see effectivePriority), so its
	// bits order as it does, and leave the top bit for the pin.
	o = rankOrder{first: math.Float64bits(k.priority), order: k.order, key: k}
	if k.pinned {
		o.first |= 1 << 63
	}
	o.date, packed = packDate(k.sec, k.nsec)
	return o, packed
}

// compareOrder orders a before b when a ranks higher: Rank's order, pinned,
// priority, lastModified, attach order, then the index in the caller's
// slice, for a stable sort. It returns at the first key that differs: it
// runs 140,000 times to sort 10,000 items.
func compareOrder(a, b rankOrder) int {
	switch {
	case a.first != b.first:
		return greaterFirst(a.first > b.first)
	case a.date != b.date:
		return greaterFirst(a.date > b.date)
	case a.order != b.order:
		return cmp.Compare(a.order, b.order)
	}
	return cmp.Compare(a.key.index, b.key.index)
}

// compareWide is compareOrder for when a date did not pack: it compares
// the dates themselves.
func compareWide(a, b rankOrder) int {
	switch {
	case a.first != b.first:
		return greaterFirst(a.first > b.first)
	case a.key.sec != b.key.sec:
		return greaterFirst(a.key.sec > b.key.sec)
	case a.key.nsec != b.key.nsec:
		return greaterFirst(a.key.nsec > b.key.nsec)
	case a.order != b.order:
		return cmp.Compare(a.order, b.order)
	}
	return cmp.Compare(a.key.index, b.key.index)
}

// greaterFirst orders a before b when a's key is the greater, given that
// they differ.
func greaterFirst(greater bool) int {
	if greater {
		return -1
	}
	return 1
}

// sortOrder sorts order and appends its keys, in rank order, to ranked;
// wide says that a date did not pack. When the dates packed and order is
// in index order (as Rank builds it), a radix sort orders the packed keys
// instead (see radixSort), in buf (grown, and returned for the next
// ranking), and order is left as it was. A Ranker starts from the last
// ranking's order instead, nearly sorted, which the comparison sort goes
// through faster.
func sortOrder(order []rankOrder, wide bool, ranked []*rankKey, buf []radixKey) ([]*rankKey, []radixKey) {
	switch {
	case wide:
		slices.SortFunc(order, compareWide)
	case len(order) < radixAbove || !inIndexOrder(order):
		slices.SortFunc(order, compareOrder)
	default:
		buf = slices.Grow(buf[:0], 2*len(order))[:2*len(order)]
		for _, k := range radixSort(order, buf) {
			ranked = append(ranked, order[k.at].key)
		}
		return ranked, buf
	}
	for _, o := range order {
		ranked = append(ranked, o.key)
	}
	return ranked, buf
}

// radixAbove is the number of keys from which radixSort is used: below it,
// clearing its counts costs more than the comparisons it saves.
const radixAbove = 256

// radixKey is a rankOrder as radixSort moves it: with the key's place in
// order instead of a pointer to it, so that moving it is a plain copy, with
// no write barrier while the collector runs.
type radixKey struct {
	first, date uint64
	order, at   int
}

// radixSort sorts order, which is in index order, as compareOrder does, in
// a least significant digit radix sort over bytes: the attach order, the
// date, then the pin and priority, each pass stable, so that the last ties
// stay in index order. A byte that is the same in every key (the high
// bytes of a small attach order, the nanoseconds of dates given to the
// second) costs no pass. For 10,000 keys it moves each key about 15 times,
// where a comparison sort compares 140,000 pairs. It returns the sorted
// keys, in buf, which is twice as long as order.
func radixSort(order []rankOrder, buf []radixKey) []radixKey {
	var counts [3][8][256]int
	src, dst := buf[:len(order)], buf[len(order):]
	for i := range order {
		o := &order[i]
		src[i] = radixKey{first: o.first, date: o.date, order: o.order, at: i}
		for w := range 3 {
			k := radixWord(&src[i], w)
			for d := range 8 {
				counts[w][d][byte(k>>(8*d))]++
			}
		}
	}
	for w := range 3 {
		for d := range 8 {
			c, shift := &counts[w][d], 8*d
			if c[byte(radixWord(&src[0], w)>>shift)] == len(src) {
				continue // every key has this byte
			}
			sum := 0
			for b, n := range c {
				c[b], sum = sum, sum+n
			}
			for i := range src {
				b := byte(radixWord(&src[i], w) >> shift)
				dst[c[b]] = src[i]
				c[b]++
			}
			src, dst = dst, src
		}
	}
	return src
}

// radixWord is the w-th word of k's sort key, least significant first,
// each ordering as compareOrder does when read as an unsigned integer:
// the attach order (its sign bit flipped), the date, then the pin and
// priority (the last two inverted: greater ranks higher).
func radixWord(k *radixKey, w int) uint64 {
	switch w {
	case 0:
		return uint64(k.order) ^ 1<<63
	case 1:
		return ^k.date
	}
	return ^k.first
}

// inIndexOrder reports whether order's keys are in the order of their
// indexes.
func inIndexOrder(order []rankOrder) bool {
	for i := 1; i < len(order); i++ {
		if order[i-1].key.index > order[i].key.index {
			return false
		}
	}
	return true
}
