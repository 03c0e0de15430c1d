package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
)

// ErrDamaged is returned, wrapped, by Get and GetDecoded for an entry whose
// value no longer matches the digest stored with it: the file changed on
// disk (a damaged sector, an edit by hand). The entry has been removed;
// the caller fetches it again.
var ErrDamaged = errors.New("cached value does not match its digest")

// digestOf is the digest stored with value: its SHA-256.
func digestOf(value []byte) []byte {
	d := sha256.Sum256(value)
	return d[:]
}

// verify returns nil if value matches digest; otherwise it removes the row
// (if it still holds that digest: a Put may have replaced it meanwhile) and
// its answer in memory, logs a warning, and returns an error wrapping
// ErrDamaged. A removal that fails (a full disk) is logged: the next read
// finds the row damaged again.
func (s *Store) verify(ctx context.Context, key Key, id int64, value, digest []byte) error {
	if bytes.Equal(digestOf(value), digest) {
		return nil
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE id = ? AND digest = ?`, id, digest)
		return err
	})
	s.mem.dropKeys(key)
	if err != nil {
		s.log.Warn("could not remove a damaged cache entry", "path", s.path, "key", key.String(), "err", err)
	} else {
		s.log.Warn("removed a cache entry whose value does not match its digest", "path", s.path, "key", key.String())
	}
	return fmt.Errorf("%v: %w", key, ErrDamaged)
}
