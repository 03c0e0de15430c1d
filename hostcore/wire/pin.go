package wire

import (
	"errors"
	"fmt"
	"slices"
)

// A tester pins the messages worth keeping: a pinned message outlives the
// record's bounds (the last 4096 messages, 4 MiB beyond the newest), so
// that the exchange a bug report is about is still there after a long
// session. Pins are bounded too, by count and bytes, and a pin beyond them
// is refused with a clear error rather than silently dropped.

// The bounds of the pinned messages of one tap.
const (
	maxPins      = 256
	maxPinnedRaw = 16 << 20
)

// pins are a tap's pinned messages; guarded by Tap.mu.
type pins struct {
	seqs  map[uint64]bool
	bytes int
	// kept are the pinned messages the record's bounds let go of, oldest
	// first: they are still the tap's.
	kept []TapMessage
}

// set returns a copy of the pinned Seqs.
func (p *pins) set() map[uint64]bool {
	out := make(map[uint64]bool, len(p.seqs))
	for s := range p.seqs {
		out[s] = true
	}
	return out
}

// letGo drops m from the window of recent messages: a pinned message is
// kept aside, any other counted as let go. t.mu is held.
func (t *Tap) letGo(m TapMessage) {
	if t.pins.seqs[m.Seq] {
		t.pins.kept = append(t.pins.kept, m)
		return
	}
	t.dropped++
}

// all returns the kept pinned messages and the recent ones, oldest first.
// t.mu is held.
func (t *Tap) all() []TapMessage {
	out := make([]TapMessage, 0, len(t.pins.kept)+len(t.msgs))
	out = append(out, t.pins.kept...)
	return append(out, t.msgs...)
}

// find returns the message numbered seq, or nil. t.mu is held.
func (t *Tap) find(seq uint64) *TapMessage {
	for _, list := range [][]TapMessage{t.msgs, t.pins.kept} {
		i, ok := slices.BinarySearchFunc(list, seq, func(m TapMessage, s uint64) int { return cmpSeq(m.Seq, s) })
		if ok {
			return &list[i]
		}
	}
	return nil
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Pin keeps the message numbered seq (TapMessage.Seq) beyond the record's
// bounds. It fails (ErrNotHeld, ErrPinLimit) when the record no longer holds the message, or when
// maxPins messages, or maxPinnedRaw bytes, are pinned already.
func (t *Tap) Pin(seq uint64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.find(seq)
	switch {
	case m == nil:
		return fmt.Errorf("pinning message %d: %w", seq, ErrNotHeld)
	case t.pins.seqs[seq]:
		return nil
	case len(t.pins.seqs) >= maxPins:
		return fmt.Errorf("pinning message %d: %d messages are pinned, the most the console keeps; unpin one first: %w", seq, maxPins, ErrPinLimit)
	case t.pins.bytes+len(m.Raw) > maxPinnedRaw:
		return fmt.Errorf("pinning message %d: the pinned messages would pass %d MiB, the most the console keeps; unpin one first: %w", seq, maxPinnedRaw>>20, ErrPinLimit)
	}
	if t.pins.seqs == nil {
		t.pins.seqs = map[uint64]bool{}
	}
	t.pins.seqs[seq] = true
	t.pins.bytes += len(m.Raw)
	return nil
}

// Unpin gives the message numbered seq back to the record's bounds: one
// they had let go of is let go now.
func (t *Tap) Unpin(seq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.pins.seqs[seq] {
		return
	}
	delete(t.pins.seqs, seq)
	if m := t.find(seq); m != nil {
		t.pins.bytes -= len(m.Raw)
	}
	if i := slices.IndexFunc(t.pins.kept, func(m TapMessage) bool { return m.Seq == seq }); i >= 0 {
		t.pins.kept = slices.Delete(t.pins.kept, i, i+1)
		t.dropped++
	}
}

// Pinned reports how many messages are pinned.
func (t *Tap) Pinned() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pins.seqs)
}

// Last returns the Seq of the newest message (0 when none).
func (t *Tap) Last() uint64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// SentSince returns the first request of one of methods that the host
// sent after the message numbered after.
func (t *Tap) SentSince(after uint64, methods ...string) (RPCEntry, bool) {
	entries, _ := t.History()
	for _, e := range entries {
		if e.Seq > after && e.Dir == Sent && e.Kind == KindRequest && slices.Contains(methods, e.Method) {
			return e, true
		}
	}
	return RPCEntry{}, false
}

// ErrNotHeld is a pin of a message the record no longer holds.
var ErrNotHeld = errors.New("the record no longer holds it")

// ErrPinLimit is a pin past the most messages, or bytes, the console keeps
// pinned.
var ErrPinLimit = errors.New("too much pinned")
