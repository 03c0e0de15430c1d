package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
)

// Count is a token count kept with an entry: what Counter counted in the
// text whose SHA-256 is Subject. The store knows nothing of tokenizers; it
// keeps the figure beside the entry, so that a process that has the entry
// need not load a tokenizer's table to know what the body costs.
type Count struct {
	// Counter names what counted: a tokenizer, its encoding and version
	// (such as "cl100k_base tiktoken-go v0.1.8 …"). An entry holds one
	// count per Counter.
	Counter string
	// Subject is the SHA-256 of the exact text counted, which the caller
	// compares with the text it would count: a count of other text is not
	// the caller's.
	Subject [sha256.Size]byte
	// Tokens is the count.
	Tokens int
}

// Count returns the count by counter stored with the entry for key visible
// to account (the entry Get would return). ok is false when that entry has
// none, or has one that fails its seal: a count changed on disk, or kept
// from another value of the entry, is removed and never returned, so the
// caller counts again. A Count is not an access: it changes no recency.
func (s *Store) Count(ctx context.Context, key Key, account, counter string) (c Count, ok bool, err error) {
	if s.closed.Load() {
		return Count{}, false, ErrClosed
	}
	r, ok, err := s.readCount(ctx, key, account, counter)
	if !ok || err != nil {
		return Count{}, false, err
	}
	c = Count{Counter: counter, Tokens: int(r.tokens)}
	if len(r.subject) != len(c.Subject) || r.tokens < 0 || !bytes.Equal(r.seal, sealOf(r.digest, counter, r.subject, r.tokens)) {
		s.dropCount(ctx, key, r.id, counter, r.seal)
		return Count{}, false, nil
	}
	copy(c.Subject[:], r.subject)
	return c, true, nil
}

// countRow is a count as its row holds it, with its entry's id and digest.
type countRow struct {
	id, tokens            int64
	digest, subject, seal []byte
}

// readCount reads the count by counter of the entry for key visible to
// account: the entry readRow would read, and no other's.
func (s *Store) readCount(ctx context.Context, key Key, account, counter string) (countRow, bool, error) {
	const query = `WITH e AS (SELECT id, digest FROM entries
			WHERE server = ? AND method = ? AND param = ?
				AND (scope = 'public' OR (scope = 'private' AND account = ?))
			ORDER BY scope LIMIT 1)
		SELECT e.id, e.digest, c.subject, c.tokens, c.seal FROM e JOIN counts c ON c.entry = e.id AND c.counter = ?`
	args := []any{key.Server, key.Method, key.Param, account, counter}
	var row *sql.Row
	if s.writeMu.TryLock() { // as readRow: one connection for a process that only reads
		defer s.writeMu.Unlock()
		row = s.writer.QueryRowContext(ctx, query, args...)
	} else {
		row = s.db.QueryRowContext(ctx, query, args...)
	}
	var r countRow
	err := row.Scan(&r.id, &r.digest, &r.subject, &r.tokens, &r.seal)
	if errors.Is(err, sql.ErrNoRows) {
		return countRow{}, false, nil
	}
	if err != nil {
		return countRow{}, false, fmt.Errorf("reading the %s count of %v: %w", counter, key, err)
	}
	return r, true, nil
}

// dropCount removes a count that failed its seal (if it still holds that
// seal: a PutCount may have replaced it meanwhile). A failure is logged:
// the count fails its seal again next time, and is not trusted then either.
func (s *Store) dropCount(ctx context.Context, key Key, id int64, counter string, seal []byte) {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM counts WHERE entry = ? AND counter = ? AND seal = ?`, id, counter, seal)
		return err
	})
	if err != nil {
		s.log.Warn("could not remove a damaged token count", "path", s.path, "key", key.String(), "err", err)
		return
	}
	s.log.Warn("removed a token count that does not match its entry", "path", s.path, "key", key.String(), "counter", counter)
}

// PutCount stores c with the entry for key visible to account, replacing
// that entry's count by the same counter. With no such entry (the body was
// not stored, or has been evicted) it stores nothing and returns nil: a
// count lives only as long as its entry, and goes when the entry's value
// changes.
func (s *Store) PutCount(ctx context.Context, key Key, account string, c Count) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if c.Tokens < 0 || c.Counter == "" {
		return fmt.Errorf("storing a count of %v: %d tokens by counter %q: %w", key, c.Tokens, c.Counter, ErrInvalidEntry)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var id int64
		var digest []byte
		err := tx.QueryRowContext(ctx, `SELECT id, digest FROM entries
			WHERE server = ? AND method = ? AND param = ?
				AND (scope = 'public' OR (scope = 'private' AND account = ?))
			ORDER BY scope LIMIT 1`, key.Server, key.Method, key.Param, account).Scan(&id, &digest)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO counts (entry, counter, subject, tokens, seal) VALUES (?, ?, ?, ?, ?)`,
			id, c.Counter, c.Subject[:], c.Tokens, sealOf(digest, c.Counter, c.Subject[:], int64(c.Tokens)))
		return err
	})
	if err != nil {
		return fmt.Errorf("storing the %s count of %v: %w", c.Counter, key, err)
	}
	return nil
}

// sealOf is the SHA-256 of a count's fields and its entry's digest, each
// field preceded by its length so that no two sets of fields run together.
func sealOf(digest []byte, counter string, subject []byte, tokens int64) []byte {
	h := sha256.New()
	var n [8]byte
	for _, f := range [][]byte{digest, []byte(counter), subject} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	binary.BigEndian.PutUint64(n[:], uint64(tokens))
	h.Write(n[:])
	return h.Sum(nil)
}
