package cache

import (
	"context"
	"fmt"
)

// Stats describes what a store holds. The counts cover the entries a
// Filter selects; MaxBytes, Path and the hit counters describe the Store
// and ignore the filter.
type Stats struct {
	// Entries and Bytes count the selected entries and their values.
	Entries int
	Bytes   int64
	// Public and Private split Entries by scope.
	Public, Private int
	// ByAccount counts the selected private entries by account name (their
	// AccountName), not by partition: two names sharing a partition are
	// counted apart, each for the entries that carry its name.
	ByAccount map[string]int
	// MaxBytes is the store's size bound.
	MaxBytes int64
	// Path is the file.
	Path string
	// Hits counts the Gets since Open that found an entry, MemoryHits the
	// part of them answered by the memory tier, Misses the Gets that found
	// none. They count this Store only, not other processes.
	Hits, MemoryHits, Misses int64
	// ReadOnly says the store was opened read-only on a full disk.
	ReadOnly bool
}

// Stats counts the entries f selects.
func (s *Store) Stats(ctx context.Context, f Filter) (Stats, error) {
	if s.closed.Load() {
		return Stats{}, ErrClosed
	}
	st := Stats{ByAccount: map[string]int{}, MaxBytes: s.maxBytes, Path: s.path,
		Hits: s.hits.Load(), MemoryHits: s.memoryHits.Load(), Misses: s.misses.Load(), ReadOnly: s.readOnly}
	where, args := f.where()
	// One statement, so the counts agree with each other even while
	// another process writes.
	rows, err := s.db.QueryContext(ctx, `SELECT account_name, scope, count(*), coalesce(sum(size), 0)
		FROM entries WHERE `+where+` GROUP BY account_name, scope`, args...)
	if err != nil {
		return Stats{}, fmt.Errorf("counting entries of %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, scope string
		var n int
		var size int64
		if err := rows.Scan(&name, &scope, &n, &size); err != nil {
			return Stats{}, fmt.Errorf("counting entries of %s: %w", s.path, err)
		}
		st.Entries, st.Bytes = st.Entries+n, st.Bytes+size
		if Scope(scope) == Public {
			st.Public += n
		} else {
			st.Private += n
			st.ByAccount[name] += n
		}
	}
	if err := rows.Err(); err != nil {
		return Stats{}, fmt.Errorf("counting entries of %s: %w", s.path, err)
	}
	return st, nil
}
