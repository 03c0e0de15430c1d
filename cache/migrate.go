package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// migrations is the schema, one step per version: migrations[i] takes a
// file from PRAGMA user_version i to i+1. The list only grows: a step that
// has shipped is never edited, since files in the wild have run it.
//
// Times are unix nanoseconds and durations nanoseconds, so that they
// compare and sort as integers.
var migrations = []string{
	// 1: the entries, one row per key and partition.
	`CREATE TABLE entries (
		id INTEGER PRIMARY KEY,
		server TEXT NOT NULL,
		method TEXT NOT NULL,
		param TEXT NOT NULL,
		scope TEXT NOT NULL CHECK (scope IN ('public', 'private')),
		account TEXT NOT NULL CHECK ((scope = 'public') = (account = '')),
		value BLOB NOT NULL,
		stored_at INTEGER NOT NULL,
		ttl INTEGER NOT NULL,
		size INTEGER NOT NULL,
		UNIQUE (server, method, param, scope, account)
	);`,

	// 2: least-recently-used bookkeeping. last_access orders eviction; the
	// running total, kept by triggers in the same transaction as every
	// change, spares each Put a SUM over the table.
	`ALTER TABLE entries ADD COLUMN last_access INTEGER NOT NULL DEFAULT 0;
	UPDATE entries SET last_access = stored_at;
	CREATE INDEX entries_by_last_access ON entries (last_access);
	CREATE INDEX entries_by_account ON entries (account, server);
	CREATE TABLE totals (
		only INTEGER PRIMARY KEY CHECK (only = 1),
		bytes INTEGER NOT NULL
	);
	INSERT INTO totals SELECT 1, coalesce(sum(size), 0) FROM entries;
	CREATE TRIGGER entries_added AFTER INSERT ON entries BEGIN
		UPDATE totals SET bytes = bytes + NEW.size;
	END;
	CREATE TRIGGER entries_removed AFTER DELETE ON entries BEGIN
		UPDATE totals SET bytes = bytes - OLD.size;
	END;
	CREATE TRIGGER entries_resized AFTER UPDATE OF size ON entries BEGIN
		UPDATE totals SET bytes = bytes - OLD.size + NEW.size;
	END;`,
}

// errNewerSchema marks a file written by a newer version of the program.
// Open treats it like a corrupt file: this version cannot read it, and a
// cache is cheap to refill.
var errNewerSchema = errors.New("schema newer than this program")

// migrate brings db to version len(steps), running the missing steps and
// the version bump in one transaction: a failed step leaves the file as it
// was. The transaction is BEGIN IMMEDIATE (the DSN's _txlock), so a second
// process opening the same file waits and then finds nothing to do.
func migrate(ctx context.Context, db *sql.DB, steps []string) error {
	if v, err := schemaVersion(ctx, db); err != nil || v == len(steps) {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting migration: %w", err)
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > len(steps) {
		return fmt.Errorf("file at version %d, program at %d: %w", v, len(steps), errNewerSchema)
	}
	for i := v; i < len(steps); i++ {
		if _, err := tx.ExecContext(ctx, steps[i]); err != nil {
			return fmt.Errorf("migrating to version %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(steps))); err != nil {
		return fmt.Errorf("setting version %d: %w", len(steps), err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing migration to version %d: %w", len(steps), err)
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
