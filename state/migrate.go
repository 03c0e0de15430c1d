package state

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations is the schema, one step per version: migrations[i] takes a
// file from PRAGMA user_version i to i+1. Steps that have shipped are never
// edited, since files in the wild have run them; a change is a new step.
//
// Times are RFC 3339 text in UTC with nanoseconds (see timeFormat).
// removed_at is set while a row is removed and undoable. server is the
// hostcore.ServerRef as JSON; server_name, derived from it, is what the
// unique index compares. The index is partial so that a resource removed
// and attached again does not collide with its removed row.
var migrations = []string{
	// 1: conversations and their attachments.
	`CREATE TABLE conversations (
		id INTEGER PRIMARY KEY,
		title TEXT NOT NULL CHECK (title <> ''),
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL,
		removed_at TEXT
	);
	CREATE TABLE attachments (
		id INTEGER PRIMARY KEY,
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		server TEXT NOT NULL CHECK (json_valid(server)),
		server_name TEXT GENERATED ALWAYS AS (json_extract(server, '$.name')) VIRTUAL
			CHECK (server_name <> ''),
		account TEXT NOT NULL,
		uri TEXT NOT NULL CHECK (uri <> ''),
		origin TEXT NOT NULL,
		template TEXT NOT NULL,
		title TEXT NOT NULL,
		added_at TEXT NOT NULL,
		pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
		priority_override REAL CHECK (priority_override BETWEEN 0 AND 1),
		annotations TEXT NOT NULL CHECK (json_valid(annotations)),
		position INTEGER NOT NULL,
		removed_at TEXT,
		UNIQUE (conversation_id, position)
	);
	CREATE UNIQUE INDEX attachments_attached
		ON attachments (conversation_id, server_name, account, uri)
		WHERE removed_at IS NULL;`,
}

// migrate brings db to version len(steps): the missing steps and the
// version bump run in one transaction, so a failed step leaves the file as
// it was. The transaction takes the write lock at BEGIN (the DSN's
// _txlock), so a second process opening the file waits and then finds
// nothing to do.
func migrate(ctx context.Context, db *sql.DB, steps []string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting migration: %w", err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if v > len(steps) {
		return fmt.Errorf("file at schema version %d, program at %d: %w", v, len(steps), ErrNewerSchema)
	}
	if v == len(steps) {
		return nil
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

// quickCheck runs PRAGMA quick_check, which answers one row "ok" or rows
// of problems; a page too broken to list problems on fails the query
// instead, which damaged recognizes.
func quickCheck(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return fmt.Errorf("checking the file: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return fmt.Errorf("checking the file: %w", err)
		}
		problems = append(problems, p)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("checking the file: %w", err)
	}
	if len(problems) == 1 && problems[0] == "ok" {
		return nil
	}
	if len(problems) > 5 {
		problems = append(problems[:5], "...")
	}
	return fmt.Errorf("quick_check: %s: %w", strings.Join(problems, "; "), ErrCorrupt)
}
