package cache

import (
	"context"
	"database/sql"
	"fmt"
)

// Delete removes every partition of key, public and private alike: a
// resources/updated notification makes every copy of the body stale. It
// returns the number of entries removed.
func (s *Store) Delete(ctx context.Context, key Key) (int, error) {
	n, err := s.deleteWhere(ctx, `server = ? AND method = ? AND param = ?`, key.Server, key.Method, key.Param)
	s.mem.dropKeys(key)
	if err != nil {
		return 0, fmt.Errorf("deleting %v: %w", key, err)
	}
	return n, nil
}

// DeleteMethod removes every entry of one method on one server, in every
// partition and for every param: all the pages of a list, after
// list_changed or an invalid cursor. It returns the number removed.
func (s *Store) DeleteMethod(ctx context.Context, server, method string) (int, error) {
	n, err := s.deleteWhere(ctx, `server = ? AND method = ?`, server, method)
	s.mem.dropWhere(func(e Entry) bool { return e.Key.Server == server && e.Key.Method == method })
	if err != nil {
		return 0, fmt.Errorf("deleting %s %s: %w", server, method, err)
	}
	return n, nil
}

// Purge removes every entry f matches, in one transaction, and returns the
// number removed. Filter{Server: s, Account: p} is a logout on one server:
// private partition p there goes, while the public entries and other
// partitions' private entries stay. Filter{AccountName: a} is what one
// account name has stored, and nothing of a name that merely starts with
// a. The zero Filter empties the store.
//
// The removed bytes are zeroed in the file (secure_delete), and Purge then
// truncates the write-ahead log, so that none of them stays on disk once
// it returns. If another connection's read outlasts the busy timeout, the
// log keeps its older frames until a later checkpoint: the purge stands,
// with a warning in the log.
func (s *Store) Purge(ctx context.Context, f Filter) (int, error) {
	where, args := f.where()
	n, err := s.deleteWhere(ctx, where, args...)
	s.mem.dropWhere(f.matches)
	if err != nil {
		return 0, fmt.Errorf("purging %v: %w", f, err)
	}
	if err := s.truncateLog(ctx); err != nil {
		s.log.Warn("purged cache entries may linger in the write-ahead log until a later checkpoint",
			"path", s.path, "filter", f.String(), "err", err)
	}
	return n, nil
}

// truncateLog copies the write-ahead log into the file and truncates it to
// nothing. Until then the log holds the pages as they were before a delete,
// the removed values with them; the copy brings the zeroed pages to the
// file. It runs on the writer connection outside any transaction, and waits
// on the busy timeout for writers and for readers of older snapshots,
// other processes' included.
func (s *Store) truncateLog(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var busy, frames, copied int
	err := s.writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied)
	if err != nil {
		return fmt.Errorf("checkpointing: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("checkpointing: %d of %d frames copied, another connection kept the log busy", copied, frames)
	}
	return nil
}

// deleteWhere deletes the rows matching a condition in one transaction.
func (s *Store) deleteWhere(ctx context.Context, where string, args ...any) (int, error) {
	if s.closed.Load() {
		return 0, ErrClosed
	}
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE `+where, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
