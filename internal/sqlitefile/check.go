package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// ErrCorrupt is returned, wrapped, by Check for a file that fails its
// check, and so by Open. IsCorrupt also recognizes SQLite's own word for a
// damaged file, which any statement may return.
var ErrCorrupt = errors.New("not a sound SQLite database")

// A Pragma is one of SQLite's checks of a whole file.
type Pragma string

const (
	// QuickCheck is PRAGMA quick_check: the structure of every b-tree
	// page, without comparing indexes to their tables. Open runs it.
	QuickCheck Pragma = "quick_check"
	// IntegrityCheck is PRAGMA integrity_check: QuickCheck, and also that
	// every index agrees with its table. It takes longer.
	IntegrityCheck Pragma = "integrity_check"
)

// Check runs pragma on db. SQLite answers a single row "ok", rows of
// problems, or, for a page too broken to list problems on, an
// SQLITE_CORRUPT error; for either of the last two Check returns an error
// wrapping ErrCorrupt, which names at most five problems. Both pragmas
// read every page of the file, so they take time in proportion to it.
func Check(ctx context.Context, db *sql.DB, pragma Pragma) error {
	problems, err := rows(ctx, db, "PRAGMA "+string(pragma))
	switch {
	case IsCorrupt(err):
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

// IsCorrupt reports whether err says the file itself is damaged: it wraps
// ErrCorrupt, or it is SQLite's SQLITE_CORRUPT or SQLITE_NOTADB, which any
// statement may return when it reads a bad page or a file that is not a
// database. Errors of the moment, such as a lock held past the busy
// timeout, a full disk or a cancelled context, are not.
func IsCorrupt(err error) bool {
	var se sqlite3.Error
	return errors.Is(err, ErrCorrupt) ||
		errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// rows returns the rows of a query that answers strings.
func rows(ctx context.Context, db *sql.DB, query string) ([]string, error) {
	rs, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rs.Err()
}
