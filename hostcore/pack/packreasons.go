package pack

// packReasons makes the reasons of one packing, sharing one string among
// the decisions that read the same. Once the budget is nearly spent, what
// is left stays the same over long runs of drops, and the drops of a run
// that need as many tokens read the same: 10,000 items make a few hundred
// strings, not 10,000.
type packReasons struct {
	ofBudget string // " left of 8,000", in every drop's reason

	includedBy map[int]string // "included: 412 tokens", by tokens

	left     int    // what is left in the current run of drops
	leftText string // left, in words; "" before the first drop
	run      int    // counts the runs of drops
	// The run's reasons by tokens: in a table for the common counts, where
	// an entry from an earlier run is stale rather than cleared (a drop
	// looks its reason up 10,000 times where a map costs 10 ns), and in a
	// map for the rest.
	droppedLow  [droppedTable]droppedReason
	droppedHigh map[int]string
}

// droppedTable is the number of token counts packReasons.dropped keeps in its
// table.
const droppedTable = 1024

// droppedReason is a drop's reason and the run of drops it was made in.
type droppedReason struct {
	run    int
	reason string
}

func (r *packReasons) included(tokens int) string {
	if s, ok := r.includedBy[tokens]; ok {
		return s
	}
	if r.includedBy == nil {
		r.includedBy = map[int]string{}
	}
	s := string(appendQuantity([]byte("included: "), tokens, "token"))
	r.includedBy[tokens] = s
	return s
}

func (r *packReasons) dropped(tokens, left int) string {
	if r.leftText == "" || left != r.left {
		r.left, r.leftText = left, grouped(left)
		r.run++
		clear(r.droppedHigh)
	}
	low := tokens >= 0 && tokens < droppedTable
	if low && r.droppedLow[tokens].run == r.run {
		return r.droppedLow[tokens].reason
	}
	if s, ok := r.droppedHigh[tokens]; ok && !low {
		return s
	}
	b := make([]byte, 0, 64)
	b = appendQuantity(append(b, "dropped: needs "...), tokens, "token")
	s := string(append(append(append(b, ", "...), r.leftText...), r.ofBudget...))
	switch {
	case low:
		r.droppedLow[tokens] = droppedReason{r.run, s}
	case r.droppedHigh == nil:
		r.droppedHigh = map[int]string{tokens: s}
	default:
		r.droppedHigh[tokens] = s
	}
	return s
}
