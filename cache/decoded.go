package cache

import (
	"context"
	"fmt"
)

// Decoder turns an entry's Value into the caller's own form of it. What it
// returns must be immutable: the memory tier keeps it and hands the same
// value to every later GetDecoded of the entry. It must not keep value,
// which may be shared.
type Decoder func(value []byte) (any, error)

// GetDecoded is Get for a caller that reads Values in a decoded form (the
// host keeps reads as JSON and serves them as structs). The memory tier
// keeps decode's result beside the entry, so a memory hit returns it as it
// is: no decode, no copy of Value, a few hundred nanoseconds. The Entry
// returned has a nil Value; decoded is what decode made of it. Visibility,
// freshness and recency are Get's. A Value that decode refuses is an
// error, and nothing is kept of it.
func (s *Store) GetDecoded(ctx context.Context, key Key, account string, decode Decoder) (e Entry, decoded any, ok bool, err error) {
	if s.closed.Load() {
		return Entry{}, nil, false, ErrClosed
	}
	now := s.now() // one clock read: on some machines it costs as much as the rest of a hit
	if s.mem != nil {
		if err := s.noticeOtherWriters(ctx, now); err != nil {
			return Entry{}, nil, false, fmt.Errorf("reading %v for account %q: %w", key, account, err)
		}
		if e, v, an, ok := s.mem.getDecoded(key, account); ok {
			s.hits.Add(1)
			s.memoryHits.Add(1)
			if an.needsNote(now) {
				s.touch(ctx, e, now)
			}
			if v == nil {
				if v, err = decodeEntry(e, decode); err != nil {
					return Entry{}, nil, false, err
				}
				s.mem.setDecoded(an, v)
			}
			e.Value = nil
			return e, v, true, nil
		}
	}
	gen := s.mem.generation()
	e, last, ok, err := s.lookup(ctx, key, account)
	if err != nil {
		return Entry{}, nil, false, fmt.Errorf("reading %v for account %q: %w", key, account, err)
	}
	if !ok {
		s.misses.Add(1)
		return Entry{}, nil, false, nil
	}
	s.hits.Add(1)
	s.noteRead(ctx, e, last, now)
	if decoded, err = decodeEntry(e, decode); err != nil {
		return Entry{}, nil, false, err
	}
	s.mem.promoteDecoded(gen, account, e, decoded) // e.Value is the driver's fresh slice: the tier may own it
	e.Value = nil
	return e, decoded, true, nil
}

func decodeEntry(e Entry, decode Decoder) (any, error) {
	v, err := decode(e.Value)
	if err != nil {
		return nil, fmt.Errorf("decoding %v: %w", e.Key, err)
	}
	return v, nil
}
