package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/attache/attache/hostcore"
)

// untitled is the title of a conversation created or renamed with an empty
// (or blank) title, so that every conversation has something to show.
const untitled = "Untitled"

// titleOrDefault trims title and gives an empty one the default.
func titleOrDefault(title string) string {
	if t := strings.TrimSpace(title); t != "" {
		return t
	}
	return untitled
}

// CreateConversation stores a new conversation titled title ("Untitled"
// if title is blank) and returns it.
func (s *Store) CreateConversation(ctx context.Context, title string) (hostcore.Conversation, error) {
	now := s.stamp()
	c := hostcore.Conversation{Title: titleOrDefault(title), CreatedAt: now, UpdatedAt: now}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`INSERT INTO conversations (title, created_at, updated_at) VALUES (?, ?, ?)`,
			c.Title, formatTime(now), formatTime(now))
		if err != nil {
			return err
		}
		c.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return hostcore.Conversation{}, fmt.Errorf("creating conversation: %w", err)
	}
	return c, nil
}

const conversationColumns = `id, title, created_at, updated_at`

// Conversation returns the conversation id; a removed one is not found.
func (s *Store) Conversation(ctx context.Context, id int64) (hostcore.Conversation, error) {
	row := s.db.QueryRowContext(ctx,
		`SELECT `+conversationColumns+` FROM conversations WHERE id = ? AND removed_at IS NULL`, id)
	c, err := scanConversation(row)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return hostcore.Conversation{}, fmt.Errorf("reading conversation %d: %w", id, err)
	}
	return c, nil
}

// Conversations returns the conversations not removed, the most recently
// updated first.
func (s *Store) Conversations(ctx context.Context) ([]hostcore.Conversation, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+conversationColumns+` FROM conversations
		WHERE removed_at IS NULL ORDER BY updated_at DESC, id DESC`)
	if err != nil {
		return nil, fmt.Errorf("listing conversations: %w", err)
	}
	defer rows.Close()
	out := []hostcore.Conversation{}
	for rows.Next() {
		c, err := scanConversation(rows)
		if err != nil {
			return nil, fmt.Errorf("listing conversations: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing conversations: %w", err)
	}
	return out, nil
}

// scanner is what *sql.Row and *sql.Rows share.
type scanner interface {
	Scan(dest ...any) error
}

func scanConversation(r scanner) (hostcore.Conversation, error) {
	var c hostcore.Conversation
	var created, updated string
	if err := r.Scan(&c.ID, &c.Title, &created, &updated); err != nil {
		return c, err
	}
	var err error
	if c.CreatedAt, err = parseTime(created); err == nil {
		c.UpdatedAt, err = parseTime(updated)
	}
	return c, err
}

// RenameConversation sets the title of conversation id ("Untitled" if
// title is blank).
func (s *Store) RenameConversation(ctx context.Context, id int64, title string) error {
	return s.changeConversation(ctx, "renaming", id,
		`UPDATE conversations SET title = ?, updated_at = ? WHERE id = ? AND removed_at IS NULL`,
		titleOrDefault(title), formatTime(s.stamp()), id)
}

// RemoveConversation hides conversation id and, with it, its attachments,
// until this Store restores it or closes. The attachments' own rows are
// untouched, so one removed before the conversation stays removed when the
// conversation comes back.
func (s *Store) RemoveConversation(ctx context.Context, id int64) error {
	return s.changeConversation(ctx, "removing", id,
		`UPDATE conversations SET removed_at = ?, removed_by = ? WHERE id = ? AND removed_at IS NULL`,
		formatTime(s.stamp()), s.session, id)
}

// RestoreConversation brings back conversation id and its attachments,
// removed by this Store. Restoring one that is not removed does nothing;
// one removed by another session (another process) wraps ErrNotFound.
func (s *Store) RestoreConversation(ctx context.Context, id int64) error {
	return s.changeConversation(ctx, "restoring", id,
		`UPDATE conversations SET removed_at = NULL, removed_by = NULL
		WHERE id = ? AND (removed_at IS NULL OR removed_by = ?)`, id, s.session)
}

// changeConversation runs an UPDATE of conversation id that must match a
// row.
func (s *Store) changeConversation(ctx context.Context, verb string, id int64, query string, args ...any) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		return expectRow(tx.ExecContext(ctx, query, args...))
	})
	if err != nil {
		return fmt.Errorf("%s conversation %d: %w", verb, id, err)
	}
	return nil
}

// expectRow turns an UPDATE that matched no row into ErrNotFound.
func expectRow(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// touch records that conversation id changed, so that it sorts first.
func (s *Store) touch(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ? WHERE id = ?`,
		formatTime(s.stamp()), id)
	return err
}
