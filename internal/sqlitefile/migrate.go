package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNewerSchema is returned, wrapped, by Migrate and Open for a file whose
// schema version is past the last step the program knows: a newer version
// of the program wrote it, and this one cannot tell what it holds.
var ErrNewerSchema = errors.New("schema newer than this program")

// Migrate brings db to schema version len(steps). steps[i] is the SQL
// that takes a file from PRAGMA user_version i to i+1; a step that has
// shipped must never be edited, since files in the wild have run it.
//
// The missing steps and the version bump run in one transaction, so a
// failed step leaves the file as it was. A file already at len(steps)
// is only read. A file past it is left alone and Migrate returns an error
// wrapping ErrNewerSchema.
//
// Two processes may migrate one file at once if the connection's
// transactions take the write lock at BEGIN (_txlock=immediate in the
// URI's params): the second waits on the busy timeout and then finds
// nothing to do. Without it, one of them may fail with SQLITE_BUSY.
func Migrate(ctx context.Context, db *sql.DB, steps []string) error {
	if v, err := schemaVersion(ctx, db); err != nil || v == len(steps) {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting migration: %w", err)
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx) // again: another process may have migrated
	if err != nil {
		return err
	}
	if v > len(steps) {
		return fmt.Errorf("file at schema version %d, program at %d: %w", v, len(steps), ErrNewerSchema)
	}
	for i := v; i < len(steps); i++ {
		if _, err := tx.ExecContext(ctx, steps[i]); err != nil {
			return fmt.Errorf("migrating to schema version %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(steps))); err != nil {
		return fmt.Errorf("setting schema version %d: %w", len(steps), err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing migration to schema version %d: %w", len(steps), err)
	}
	return nil
}

// queryer is what *sql.DB and *sql.Tx share.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func schemaVersion(ctx context.Context, q queryer) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("reading schema version: %w", err)
	}
	return v, nil
}
