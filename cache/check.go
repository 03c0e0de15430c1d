package cache

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/attache/attache/internal/sqlitefile"
)

// Check runs PRAGMA integrity_check over the whole file and verifies the
// size accounting (every row's size is the length of its value, and the
// running total is their sum) and every value's digest. A failure wraps
// ErrCorrupt. It reads every
// page, so it takes time in proportion to the file; Open runs the cheaper
// quick_check instead.
func (s *Store) Check(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := pragmaCheck(ctx, s.db, sqlitefile.IntegrityCheck); err != nil {
		return fmt.Errorf("checking %s: %w", s.path, err)
	}
	if err := checkTotals(ctx, s.db); err != nil {
		return fmt.Errorf("checking %s: %w", s.path, err)
	}
	if err := checkDigests(ctx, s.db); err != nil {
		return fmt.Errorf("checking %s: %w", s.path, err)
	}
	return nil
}

// checkDigests verifies every value against its digest.
func checkDigests(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT value, digest FROM entries`)
	if err != nil {
		return fmt.Errorf("reading digests: %w", err)
	}
	defer rows.Close()
	wrong := 0
	for rows.Next() {
		var value, digest []byte
		if err := rows.Scan(&value, &digest); err != nil {
			return fmt.Errorf("reading digests: %w", err)
		}
		if !bytes.Equal(digestOf(value), digest) {
			wrong++
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading digests: %w", err)
	}
	if wrong > 0 {
		return fmt.Errorf("%d values do not match their digests: %w", wrong, ErrCorrupt)
	}
	return nil
}

// pragmaCheck runs PRAGMA quick_check or integrity_check (see
// sqlitefile.Check). A failure wraps ErrCorrupt.
func pragmaCheck(ctx context.Context, db *sql.DB, pragma sqlitefile.Pragma) error {
	return corrupt(sqlitefile.Check(ctx, db, pragma))
}

// corrupt wraps ErrCorrupt around err if err says the file is damaged or
// not a database, and returns other errors as they are.
func corrupt(err error) error {
	if sqlitefile.IsCorrupt(err) && !errors.Is(err, ErrCorrupt) {
		return fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	return err
}

// checkTotals verifies what eviction relies on: sizes and their total.
func checkTotals(ctx context.Context, db *sql.DB) error {
	var total, sum, wrong int64
	err := db.QueryRowContext(ctx, `SELECT (SELECT bytes FROM totals),
		(SELECT coalesce(sum(size), 0) FROM entries),
		(SELECT count(*) FROM entries WHERE size != length(value))`).Scan(&total, &sum, &wrong)
	if err != nil {
		return fmt.Errorf("reading size accounting: %w", err)
	}
	if total != sum || wrong != 0 {
		return fmt.Errorf("size accounting: running total %d, sizes sum to %d, %d rows misreport their size: %w",
			total, sum, wrong, ErrCorrupt)
	}
	return nil
}
