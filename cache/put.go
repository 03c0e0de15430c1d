package cache

import (
	"context"
	"database/sql"
	"fmt"
)

// Put stores e, replacing the entry with the same key, scope and
// partition (and with it that entry's AccountName).
// It stores a copy of e.Value and keeps no reference to the slice, which it
// reads only during the call; it sets Size to the value's length and fills
// a zero StoredAt with the store's clock. An entry that breaks the
// partition rules wraps ErrInvalidEntry; a value larger than MaxBytes
// wraps ErrTooLarge. In both cases nothing is stored or removed. If the
// store would outgrow MaxBytes, the least recently used entries are
// evicted in the same transaction.
func (s *Store) Put(ctx context.Context, e Entry) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if e.StoredAt.IsZero() {
		e.StoredAt = s.now()
	}
	if err := e.validate(); err != nil {
		return fmt.Errorf("storing %v: %w", e.Key, err)
	}
	if n := int64(len(e.Value)); n > s.maxBytes {
		return fmt.Errorf("storing %v: %d bytes, over the %d-byte limit: %w", e.Key, n, s.maxBytes, ErrTooLarge)
	}
	// The driver copies the value as it binds it, and nothing here keeps
	// the slice, so it stays the caller's. A nil slice would bind as NULL.
	if e.Value == nil {
		e.Value = []byte{}
	}
	e.Size = int64(len(e.Value))
	var evicted []Key
	err := s.write(ctx, func(tx *sql.Tx) error {
		id, err := upsert(ctx, tx, e, s.now().UnixNano())
		if err != nil {
			return err
		}
		evicted, err = evict(ctx, tx, id, s.maxBytes)
		return err
	})
	// Dropped even on failure: an answer too many forgotten costs a read.
	s.mem.dropKeys(append(evicted, e.Key)...)
	if err != nil {
		return fmt.Errorf("storing %v: %w", e.Key, err)
	}
	return nil
}

// upsert writes e and returns its row id.
func upsert(ctx context.Context, tx *sql.Tx, e Entry, now int64) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO entries
		(server, method, param, scope, account, account_name, value, digest, stored_at, ttl, size, last_access)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (server, method, param, scope, account) DO UPDATE SET
			account_name = excluded.account_name, value = excluded.value, digest = excluded.digest,
			stored_at = excluded.stored_at, ttl = excluded.ttl,
			size = excluded.size, last_access = excluded.last_access
		RETURNING id`,
		e.Key.Server, e.Key.Method, e.Key.Param, string(e.Scope), e.Account, e.AccountName,
		e.Value, digestOf(e.Value), e.StoredAt.UnixNano(), int64(e.TTL), e.Size, now).Scan(&id)
	return id, err
}

// evict deletes the least recently used entries other than row keep until
// the total fits in maxBytes, and returns their keys.
func evict(ctx context.Context, tx *sql.Tx, keep, maxBytes int64) ([]Key, error) {
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT bytes FROM totals`).Scan(&total); err != nil {
		return nil, fmt.Errorf("reading total size: %w", err)
	}
	if total <= maxBytes {
		return nil, nil
	}
	ids, keys, err := oldest(ctx, tx, keep, total-maxBytes)
	if err != nil {
		return nil, fmt.Errorf("choosing entries to evict: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE id = ?`, id); err != nil {
			return nil, fmt.Errorf("evicting: %w", err)
		}
	}
	return keys, nil
}

// oldest returns the least recently used rows, other than keep, whose sizes
// add up to at least excess.
func oldest(ctx context.Context, tx *sql.Tx, keep, excess int64) (ids []int64, keys []Key, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, server, method, param, size FROM entries
		WHERE id != ? ORDER BY last_access, id`, keep)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for freed := int64(0); freed < excess && rows.Next(); {
		var id, size int64
		var k Key
		if err := rows.Scan(&id, &k.Server, &k.Method, &k.Param, &size); err != nil {
			return nil, nil, err
		}
		ids, keys, freed = append(ids, id), append(keys, k), freed+size
	}
	return ids, keys, rows.Err()
}
