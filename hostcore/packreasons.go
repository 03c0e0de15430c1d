package hostcore

// packReasons makes the reasons of one packing, sharing one string among
// the decisions that read the same. Once the budget is nearly spent, what
// is left stays the same over long runs of drops, and the drops of a run
// that need as many tokens read the same: 10,000 items make a few hundred
// strings, not 10,000.
type packReasons struct {
	ofBudget string // " left of 8,000", in every drop's reason

	includedBy map[int]string // "included: 412 tokens", by tokens

	left      int            // what is left in the current run of drops
	leftText  string         // left, in words; "" before the first drop
	droppedBy map[int]string // the run's reasons, by tokens
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
		if r.droppedBy == nil {
			r.droppedBy = map[int]string{}
		}
		clear(r.droppedBy)
	}
	if s, ok := r.droppedBy[tokens]; ok {
		return s
	}
	b := make([]byte, 0, 64)
	b = appendQuantity(append(b, "dropped: needs "...), tokens, "token")
	s := string(append(append(append(b, ", "...), r.leftText...), r.ofBudget...))
	r.droppedBy[tokens] = s
	return s
}
