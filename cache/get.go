package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Get returns the entry for key visible to account, a partition: the
// partition's Private entry if there is one, else the Public one. A Private
// entry of another partition is never returned, whatever its AccountName;
// account "" sees Public entries only. ok is false when there is none. The
// entry is returned whether fresh or stale; judging StoredAt and TTL is the
// caller's business. A Get counts as an access for least-recently-used
// eviction.
func (s *Store) Get(ctx context.Context, key Key, account string) (e Entry, ok bool, err error) {
	if s.closed.Load() {
		return Entry{}, false, ErrClosed
	}
	if e, ok, err := s.getMemory(ctx, key, account); ok || err != nil {
		return e, ok, err
	}
	gen := s.mem.generation()
	e, last, ok, err := s.lookup(ctx, key, account)
	if err != nil {
		return Entry{}, false, fmt.Errorf("reading %v for account %q: %w", key, account, err)
	}
	if !ok {
		s.misses.Add(1)
		return Entry{}, false, nil
	}
	s.hits.Add(1)
	s.noteRead(ctx, e, last, s.now())
	if s.testHookAfterRead != nil {
		s.testHookAfterRead()
	}
	if s.mem.promote(gen, account, e) {
		return e.clone(), true, nil
	}
	return e, true, nil // a fresh slice from the driver, nobody else's
}

// getMemory answers from the memory tier, if it is on and holds an answer.
func (s *Store) getMemory(ctx context.Context, key Key, account string) (Entry, bool, error) {
	if s.mem == nil {
		return Entry{}, false, nil
	}
	now := s.now()
	if err := s.noticeOtherWriters(ctx, now); err != nil {
		return Entry{}, false, fmt.Errorf("reading %v for account %q: %w", key, account, err)
	}
	e, ok := s.mem.get(key, account)
	if !ok {
		return Entry{}, false, nil
	}
	s.hits.Add(1)
	s.memoryHits.Add(1)
	s.touch(ctx, e, now)
	return e.clone(), true, nil
}

// lookup reads the entry for key visible to account from SQLite, and the
// row's last access, after checking its value against its digest (see
// verify): a damaged entry is removed and is an error wrapping ErrDamaged.
func (s *Store) lookup(ctx context.Context, key Key, account string) (e Entry, lastAccess time.Time, ok bool, err error) {
	r, ok, err := s.readRow(ctx, key, account)
	if !ok || err != nil {
		return Entry{}, time.Time{}, false, err
	}
	if err := s.verify(ctx, key, r.id, r.entry.Value, r.digest); err != nil {
		return Entry{}, time.Time{}, false, err
	}
	return r.entry, r.lastAccess, true, nil
}

// storedRow is an entry as its row holds it.
type storedRow struct {
	entry      Entry
	lastAccess time.Time
	id         int64
	digest     []byte
}

// readRow reads the row for key visible to account. The CHECK constraint
// gives the empty partition to public rows alone, so the condition below
// can match only the public row and the partition's own private row.
//
// It reads on the writer connection when no write holds it, and on a
// pooled one otherwise. A process that opens the cache for one hit (an
// attachectl read) then opens one SQLite connection, not two: each costs
// an open, its pragmas, a parse of the schema and a page cache of its own,
// most of what opening the store costs.
func (s *Store) readRow(ctx context.Context, key Key, account string) (storedRow, bool, error) {
	const query = `SELECT id, scope, account, account_name, value, digest, stored_at, ttl, size, last_access FROM entries
		WHERE server = ? AND method = ? AND param = ?
			AND (scope = 'public' OR (scope = 'private' AND account = ?))
		ORDER BY scope LIMIT 1` // 'private' sorts before 'public': the index gives that order, no sort
	var row *sql.Row
	if s.writeMu.TryLock() { // held until Scan: a Row keeps its connection until then
		defer s.writeMu.Unlock()
		row = s.writer.QueryRowContext(ctx, query, key.Server, key.Method, key.Param, account)
	} else {
		row = s.db.QueryRowContext(ctx, query, key.Server, key.Method, key.Param, account)
	}
	r := storedRow{entry: Entry{Key: key}}
	e := &r.entry
	var scope string
	var storedAt, ttl, last int64
	err := row.Scan(&r.id, &scope, &e.Account, &e.AccountName, &e.Value, &r.digest, &storedAt, &ttl, &e.Size, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return storedRow{}, false, nil
	}
	if err != nil {
		return storedRow{}, false, err
	}
	e.Scope, e.StoredAt, e.TTL, r.lastAccess = Scope(scope), time.Unix(0, storedAt), time.Duration(ttl), time.Unix(0, last)
	if e.Value == nil {
		e.Value = []byte{}
	}
	return r, true, nil
}

// noteRead records a read from SQLite at now, unless the row's last access
// in the file is within accessGrain of now (or later): eviction orders
// entries to the second, as it does for memory hits, and recording such a
// read would change nothing it can see. Skipping it is what lets a process
// that reads a recently used entry and exits (an attachectl read) leave the
// file untouched: no write transaction, so no WAL to sync, check-point and
// sync again at close.
func (s *Store) noteRead(ctx context.Context, e Entry, lastAccess, now time.Time) {
	if now.Sub(lastAccess) < accessGrain {
		return
	}
	s.touch(ctx, e, now)
}

// touch records an access to e at now. It writes to SQLite only when the
// access log is full; a failure then costs recency, not the read, so it is
// logged.
func (s *Store) touch(ctx context.Context, e Entry, now time.Time) {
	if !s.access.record(slotOf(e), now) {
		return
	}
	if err := s.write(ctx, nil); err != nil {
		s.log.Warn("recording cache access times", "path", s.path, "err", err)
	}
}
