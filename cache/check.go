package cache

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Check runs PRAGMA integrity_check over the whole file and verifies the
// size accounting: every row's size is the length of its value, and the
// running total is their sum. A failure wraps ErrCorrupt. It reads every
// page, so it takes time in proportion to the file; Open runs the cheaper
// quick_check instead.
func (s *Store) Check(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := pragmaCheck(ctx, s.db, "integrity_check"); err != nil {
		return fmt.Errorf("checking %s: %w", s.path, err)
	}
	if err := checkTotals(ctx, s.db); err != nil {
		return fmt.Errorf("checking %s: %w", s.path, err)
	}
	return nil
}

// pragmaCheck runs PRAGMA quick_check or integrity_check, which answer a
// single row "ok", rows of problems, or, when a page is too broken to
// list problems on, SQLITE_CORRUPT. Both of the last two wrap ErrCorrupt.
func pragmaCheck(ctx context.Context, db *sql.DB, pragma string) error {
	problems, err := pragmaRows(ctx, db, pragma)
	switch {
	case corruptCode(err):
		return fmt.Errorf("%s: %w: %w", pragma, err, ErrCorrupt)
	case err != nil:
		return fmt.Errorf("running %s: %w", pragma, err)
	case len(problems) == 1 && problems[0] == "ok":
		return nil
	case len(problems) > 5:
		problems = append(problems[:5], "...")
	}
	return fmt.Errorf("%s: %s: %w", pragma, strings.Join(problems, "; "), ErrCorrupt)
}

// pragmaRows returns the rows of a pragma that answers strings.
func pragmaRows(ctx context.Context, db *sql.DB, pragma string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA "+pragma)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
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
