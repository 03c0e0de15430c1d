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
// number removed. Filter{Server: s, Account: a} is an account's logout on
// one server: its private partition there goes, while the public entries
// and other accounts' private entries stay. The zero Filter empties the
// store.
func (s *Store) Purge(ctx context.Context, f Filter) (int, error) {
	where, args := f.where()
	n, err := s.deleteWhere(ctx, where, args...)
	s.mem.dropWhere(f.matches)
	if err != nil {
		return 0, fmt.Errorf("purging %v: %w", f, err)
	}
	return n, nil
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
