package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/redact"
)

// validate refuses what no later command could use: an attachment must say
// which server and resource it is, and how it was chosen.
func validate(a hostcore.Attachment) error {
	switch {
	case a.Server.Name == "":
		return fmt.Errorf("attachment of %q: the server name is empty: %w", a.URI, ErrInvalid)
	case a.URI == "":
		return fmt.Errorf("attachment from server %q: the uri is empty: %w", a.Server.Name, ErrInvalid)
	}
	switch a.Origin {
	case hostcore.FromList, hostcore.FromTemplate, hostcore.FromID, hostcore.FromTool:
	default:
		return fmt.Errorf("attachment of %q: unknown origin %q: %w", a.URI, a.Origin, ErrInvalid)
	}
	return validateOverride(a.PriorityOverride)
}

// validateOverride refuses a priority outside 0..1, NaN included (SQLite
// would store NaN as NULL, silently turning the override off).
func validateOverride(p *float64) error {
	if p != nil && !(*p >= 0 && *p <= 1) {
		return fmt.Errorf("priority override %v is outside 0..1: %w", *p, ErrInvalid)
	}
	return nil
}

// AddAttachment stores a in conversation a.ConversationID and returns it
// as stored: with its ID, its Position (after every attachment the
// conversation has had) and AddedAt (now, if a.AddedAt is zero; in UTC).
// If the conversation already has the same resource attached (the same
// server name, account and uri), it returns that attachment unchanged
// instead. A blank server name or uri, or an unknown origin, wraps
// ErrInvalid; a missing or removed conversation wraps ErrNotFound.
func (s *Store) AddAttachment(ctx context.Context, a hostcore.Attachment) (hostcore.Attachment, error) {
	if err := validate(a); err != nil {
		return hostcore.Attachment{}, fmt.Errorf("adding attachment: %w", err)
	}
	if a.AddedAt.IsZero() {
		a.AddedAt = s.stamp()
	}
	server, annotations, err := encodeJSON(a)
	if err != nil {
		return hostcore.Attachment{}, fmt.Errorf("adding attachment: %w", err)
	}
	var out hostcore.Attachment
	err = s.write(ctx, func(tx *sql.Tx) error {
		id, err := insertAttachment(ctx, tx, a, server, annotations)
		if err == nil {
			err = s.touch(ctx, tx, a.ConversationID)
		}
		if err == nil {
			out, err = scanAttachment(tx.QueryRowContext(ctx,
				`SELECT `+attachmentColumns+` FROM attachments WHERE id = ?`, id))
		}
		return err
	})
	if err != nil {
		return hostcore.Attachment{}, fmt.Errorf("adding %s to conversation %d: %w", a.URI, a.ConversationID, err)
	}
	return out, nil
}

// insertAttachment inserts a, unless the conversation has it already, and
// returns the id of the row that holds it. The caller's transaction holds
// the write lock, so the duplicate check and max(position) stand until it
// commits.
func insertAttachment(ctx context.Context, tx *sql.Tx, a hostcore.Attachment, server, annotations string) (int64, error) {
	position, err := nextPosition(ctx, tx, a.ConversationID)
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM attachments WHERE conversation_id = ?
		AND server_name = ? AND account = ? AND uri = ? AND removed_at IS NULL`,
		a.ConversationID, a.Server.Name, a.Account, a.URI).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, err // the one attached already, or a failure
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO attachments (conversation_id, server, account,
		uri, origin, template, title, added_at, pinned, priority_override, annotations, position)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ConversationID, server, a.Account, a.URI, string(a.Origin), a.Template, a.Title,
		formatTime(a.AddedAt), a.Pinned, a.PriorityOverride, annotations, position)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// nextPosition returns the position after every attachment conversation
// id has had, removed ones included, so that a restored attachment never
// shares its place. A missing or removed conversation is ErrNotFound.
func nextPosition(ctx context.Context, tx *sql.Tx, id int64) (int64, error) {
	var position int64
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT coalesce(max(position), 0) + 1 FROM attachments WHERE conversation_id = c.id)
		FROM conversations c WHERE c.id = ? AND c.removed_at IS NULL`, id).Scan(&position)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("conversation %d: %w", id, ErrNotFound)
	}
	return position, err
}

// encodeJSON returns a's server and annotations as stored.
func encodeJSON(a hostcore.Attachment) (server, annotations string, err error) {
	sb, err := json.Marshal(a.Server)
	if err != nil {
		return "", "", fmt.Errorf("encoding server: %w", err)
	}
	ab, err := json.Marshal(a.Annotations)
	if err != nil {
		return "", "", fmt.Errorf("encoding annotations: %w", err)
	}
	return string(sb), string(ab), nil
}

const attachmentColumns = `id, conversation_id, server, account, uri, origin, template, title,
	added_at, pinned, priority_override, annotations, position`

// scanAttachment reads a row of attachmentColumns. JSON leaves empty
// slices (Server.Args, Annotations.Audience) nil.
func scanAttachment(r scanner) (hostcore.Attachment, error) {
	var a hostcore.Attachment
	var server, added, annotations string
	var override sql.NullFloat64
	err := r.Scan(&a.ID, &a.ConversationID, &server, &a.Account, &a.URI, &a.Origin, &a.Template,
		&a.Title, &added, &a.Pinned, &override, &annotations, &a.Position)
	if err != nil {
		return a, err
	}
	if override.Valid {
		a.PriorityOverride = &override.Float64
	}
	if err := json.Unmarshal([]byte(server), &a.Server); err != nil {
		return a, fmt.Errorf("reading attachment %d's server: %w", a.ID, err)
	}
	if err := json.Unmarshal([]byte(annotations), &a.Annotations); err != nil {
		return a, fmt.Errorf("reading attachment %d's annotations: %w", a.ID, err)
	}
	a.AddedAt, err = parseTime(added)
	return a, err
}

// Attachments returns the attachments of conversation conversationID that
// are not removed, in the order of attaching. A missing or removed
// conversation wraps ErrNotFound.
func (s *Store) Attachments(ctx context.Context, conversationID int64) ([]hostcore.Attachment, error) {
	out, err := s.attachments(ctx, conversationID)
	if err == nil && len(out) == 0 {
		_, err = s.Conversation(ctx, conversationID) // none, or no conversation?
	}
	if err != nil {
		return nil, fmt.Errorf("listing attachments of conversation %d: %w", conversationID, err)
	}
	return out, nil
}

func (s *Store) attachments(ctx context.Context, conversationID int64) ([]hostcore.Attachment, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+attachmentColumns+` FROM attachments
		WHERE conversation_id = ? AND removed_at IS NULL AND `+inLiveConversation+`
		ORDER BY position`, conversationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []hostcore.Attachment{}
	for rows.Next() {
		a, err := scanAttachment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// inLiveConversation limits attachments to those of conversations not
// removed: removing a conversation hides its attachments without touching
// their rows.
const inLiveConversation = `conversation_id IN (SELECT id FROM conversations WHERE removed_at IS NULL)`

// UpdateAttachment saves a's Pinned, PriorityOverride and Annotations; its
// other fields are ignored (they say what was attached, which does not
// change). A removed attachment wraps ErrNotFound.
func (s *Store) UpdateAttachment(ctx context.Context, a hostcore.Attachment) error {
	if err := validateOverride(a.PriorityOverride); err != nil {
		return fmt.Errorf("updating attachment %d: %w", a.ID, err)
	}
	_, annotations, err := encodeJSON(a)
	if err != nil {
		return fmt.Errorf("updating attachment %d: %w", a.ID, err)
	}
	return s.changeAttachment(ctx, "updating", a.ID, nil, `UPDATE attachments
		SET pinned = ?, priority_override = ?, annotations = ?
		WHERE id = ? AND removed_at IS NULL AND `+inLiveConversation,
		a.Pinned, a.PriorityOverride, annotations, a.ID)
}

// RemoveAttachment hides attachment id until this Store restores it or
// closes.
func (s *Store) RemoveAttachment(ctx context.Context, id int64) error {
	return s.changeAttachment(ctx, "removing", id, nil, `UPDATE attachments
		SET removed_at = ?, removed_by = ?
		WHERE id = ? AND removed_at IS NULL AND `+inLiveConversation,
		formatTime(s.stamp()), s.session, id)
}

// RestoreAttachment brings back attachment id, removed by this Store;
// restoring one that is not removed does nothing, and one removed by
// another session (another process) wraps ErrNotFound. If the same resource has
// been attached to the conversation again since, it fails with ErrConflict
// (the conversation has the resource; the caller may remove the new one
// first). An attachment of a removed conversation wraps ErrNotFound:
// restore the conversation.
func (s *Store) RestoreAttachment(ctx context.Context, id int64) error {
	return s.changeAttachment(ctx, "restoring", id, s.noConflict, `UPDATE attachments
		SET removed_at = NULL, removed_by = NULL
		WHERE id = ? AND (removed_at IS NULL OR removed_by = ?) AND `+inLiveConversation,
		id, s.session)
}

// noConflict fails with ErrConflict if attachment id, removed by this
// Store, has its resource attached to its conversation again.
func (s *Store) noConflict(ctx context.Context, tx *sql.Tx, id int64) error {
	var again int64
	err := tx.QueryRowContext(ctx, `SELECT b.id FROM attachments a JOIN attachments b
		ON b.conversation_id = a.conversation_id AND b.server_name = a.server_name
		AND b.account = a.account AND b.uri = a.uri
		WHERE a.id = ? AND a.removed_at IS NOT NULL AND a.removed_by = ? AND b.removed_at IS NULL`,
		id, s.session).Scan(&again)
	switch {
	case err == nil:
		return fmt.Errorf("the resource is attached again as attachment %d: %w", again, ErrConflict)
	case errors.Is(err, sql.ErrNoRows):
		return nil
	}
	return err
}

// changeAttachment runs an UPDATE of attachment id that must match a row,
// after check (if not nil), and records the change on its conversation.
func (s *Store) changeAttachment(ctx context.Context, verb string, id int64,
	check func(context.Context, *sql.Tx, int64) error, query string, args ...any) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if check != nil {
			if err := check(ctx, tx, id); err != nil {
				return err
			}
		}
		if err := expectRow(tx.ExecContext(ctx, query, args...)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ?
			WHERE id = (SELECT conversation_id FROM attachments WHERE id = ?)`,
			formatTime(s.stamp()), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s attachment %d: %w", verb, id, err)
	}
	return nil
}

// scrubUserinfo removes the userinfo from the URLs of remembered servers.
// Earlier versions kept an ad-hoc server's URL as typed, user:password@
// included; a URL's userinfo is a credential, and the state file keeps
// none (hostcore.Ref strips it from new attachments).
func scrubUserinfo(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT id, server FROM attachments WHERE server LIKE '%@%'`)
	if err != nil {
		return fmt.Errorf("looking for credentials in remembered servers: %w", err)
	}
	type fix struct {
		id     int64
		server string
	}
	var fixes []fix
	for rows.Next() {
		var id int64
		var server string
		if err := rows.Scan(&id, &server); err != nil {
			rows.Close()
			return err
		}
		var ref hostcore.ServerRef
		if json.Unmarshal([]byte(server), &ref) != nil {
			continue
		}
		if clean := redact.WithoutUserinfo(ref.URL); clean != ref.URL {
			ref.URL = clean
			b, _ := json.Marshal(ref)
			fixes = append(fixes, fix{id, string(b)})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, f := range fixes {
		if _, err := db.ExecContext(ctx, `UPDATE attachments SET server = ? WHERE id = ?`, f.server, f.id); err != nil {
			return fmt.Errorf("removing a credential from attachment %d's server: %w", f.id, err)
		}
	}
	if len(fixes) > 0 {
		// The old pages are zeroed (secure_delete); move the log's copies
		// into the file and truncate the log, so no copy stays behind.
		if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return fmt.Errorf("checkpointing after removing credentials: %w", err)
		}
	}
	return nil
}
