package cache

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// slot names one stored row: a key in one partition.
type slot struct {
	key     Key
	scope   Scope
	account string
}

func slotOf(e Entry) slot { return slot{key: e.Key, scope: e.Scope, account: e.Account} }

// maxPendingAccess bounds the access times held back from SQLite; a Get
// that fills the log writes it out.
const maxPendingAccess = 4096

// accessLog holds the last-access times that Gets have recorded and SQLite
// has not yet seen.
//
// A Get never writes to SQLite for its own sake: a write per read would
// make every hit pay for a transaction, and would bump the data_version
// that tells other processes to drop their memory tiers. Instead the times
// wait here and go out at the start of the next write transaction (a Put,
// a Delete, a Purge), which is exactly where eviction needs them, or when
// the log fills. Close leaves them in the access file (see accessFile),
// without a write. A process killed before that loses only some recency,
// never an entry.
type accessLog struct {
	mu      sync.Mutex
	pending map[slot]int64 // unix nanoseconds
}

// record notes that s was read at t and reports whether the log is full.
func (l *accessLog) record(s slot, t time.Time) (full bool) {
	n := t.UnixNano()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = make(map[slot]int64)
	}
	if n > l.pending[s] {
		l.pending[s] = n
	}
	return len(l.pending) >= maxPendingAccess
}

// take empties the log and returns what it held.
func (l *accessLog) take() map[slot]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.pending
	l.pending = nil
	return p
}

// writeAccess writes the times in tx. A time never moves last_access back,
// and a row deleted meanwhile is simply not found.
func writeAccess(ctx context.Context, tx *sql.Tx, pending map[slot]int64) error {
	if len(pending) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `UPDATE entries SET last_access = max(last_access, ?)
		WHERE server = ? AND method = ? AND param = ? AND scope = ? AND account = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for s, t := range pending {
		k := s.key
		if _, err := stmt.ExecContext(ctx, t, k.Server, k.Method, k.Param, string(s.scope), s.account); err != nil {
			return err
		}
	}
	return nil
}

// mergeTimes returns a with b's times added, the later one kept for a
// slot in both. Either may be nil.
func mergeTimes(a, b map[slot]int64) map[slot]int64 {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = make(map[slot]int64, len(b))
	}
	for s, t := range b {
		if t > a[s] {
			a[s] = t
		}
	}
	return a
}

// closeAccess records what the access log holds as a Store closes: in the
// access file, with no transaction and no fsync, while the file is within
// its bound; in SQLite, which empties the file, past it or when the append
// fails. A read-only store drops them.
func (s *Store) closeAccess(ctx context.Context) error {
	if s.readOnly {
		s.access.take()
		return nil
	}
	pending := s.access.take()
	if len(pending) == 0 {
		return nil
	}
	if s.accesses.size() < maxAccessFileBytes {
		err := s.accesses.appendTimes(pending)
		if err == nil {
			return nil
		}
		s.log.Debug("recording access times in SQLite: the access file took no append", "path", s.accesses.path, "err", err)
	}
	for sl, t := range pending {
		s.access.record(sl, time.Unix(0, t))
	}
	return s.write(ctx, nil)
}
