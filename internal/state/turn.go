package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
)

var _ chat.TurnStore = (*Store)(nil)

// A turn's context and tools are stored as JSON in its row, its requests
// and messages as rows of their own, appended as they happen (see
// migration step 3). A removed conversation hides its turns with it, and
// purging it deletes them (the foreign keys cascade).

// StartTurn stores t as the next turn of its conversation, with its first
// messages and requests, and returns it with its ID and Seq. A missing or
// removed conversation wraps ErrNotFound.
func (s *Store) StartTurn(ctx context.Context, t chat.Turn) (chat.Turn, error) {
	if t.StartedAt.IsZero() {
		t.StartedAt = s.stamp()
	}
	if t.Status == "" {
		t.Status = chat.TurnRunning
	}
	if t.Tools == nil {
		t.Tools = []chat.OfferedTool{}
	}
	sc, err := json.Marshal(t.Context)
	if err != nil {
		return chat.Turn{}, fmt.Errorf("starting a turn: %w", err)
	}
	tools, err := json.Marshal(t.Tools)
	if err != nil {
		return chat.Turn{}, fmt.Errorf("starting a turn: %w", err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := liveConversation(ctx, tx, t.ConversationID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM turns WHERE conversation_id = ?`,
			t.ConversationID).Scan(&t.Seq); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO turns (conversation_id, seq, provider, model, started_at, status,
			error_kind, error, context, tools, listing_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ConversationID, t.Seq, t.Provider, t.Model, formatTime(t.StartedAt), string(t.Status),
			string(t.ErrorKind), t.Error, string(sc), string(tools), t.ListingTokens)
		if err != nil {
			return err
		}
		if t.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, m := range t.Messages {
			if err := insertMessage(ctx, tx, t.ID, m); err != nil {
				return err
			}
		}
		for _, r := range t.Requests {
			if err := insertRequest(ctx, tx, t.ID, r); err != nil {
				return err
			}
		}
		return s.touch(ctx, tx, t.ConversationID)
	})
	if err != nil {
		return chat.Turn{}, fmt.Errorf("starting a turn of conversation %d: %w", t.ConversationID, err)
	}
	return t, nil
}

// liveConversation wraps ErrNotFound unless conversation id exists and is
// not removed.
func liveConversation(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id int64) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM conversations WHERE id = ? AND removed_at IS NULL`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("conversation %d: %w", id, ErrNotFound)
	}
	return nil
}

func insertMessage(ctx context.Context, tx *sql.Tx, turnID int64, m chat.Message) error {
	switch m.Role {
	case chat.RoleUser, chat.RoleAssistant, chat.RoleTool:
	default:
		return fmt.Errorf("a message of role %q: %w", m.Role, ErrInvalid)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO turn_messages (turn_id, seq, role, message)
		VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM turn_messages WHERE turn_id = ?), ?, ?)`,
		turnID, turnID, string(m.Role), string(b))
	return err
}

func insertRequest(ctx context.Context, tx *sql.Tx, turnID int64, r chat.RequestRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO turn_requests (turn_id, round, record) VALUES (?, ?, ?)`, turnID, r.Round, string(b))
	return err
}

// AddMessage appends m to turn turnID; an unknown turn wraps ErrNotFound.
func (s *Store) AddMessage(ctx context.Context, turnID int64, m chat.Message) error {
	return s.changeTurn(ctx, "adding a message to", turnID, func(tx *sql.Tx) error { return insertMessage(ctx, tx, turnID, m) })
}

// AddRequest records request r of turn turnID; an unknown turn wraps
// ErrNotFound.
func (s *Store) AddRequest(ctx context.Context, turnID int64, r chat.RequestRecord) error {
	return s.changeTurn(ctx, "recording a request of", turnID, func(tx *sql.Tx) error { return insertRequest(ctx, tx, turnID, r) })
}

// FinishTurn records how turn turnID ended.
func (s *Store) FinishTurn(ctx context.Context, turnID int64, status chat.TurnStatus, kind fault.Kind, msg string, at time.Time) error {
	return s.changeTurn(ctx, "finishing", turnID, func(tx *sql.Tx) error {
		return expectRow(tx.ExecContext(ctx, `UPDATE turns SET status = ?, error_kind = ?, error = ?, finished_at = ? WHERE id = ?`,
			string(status), string(kind), msg, formatTime(at), turnID))
	})
}

// changeTurn runs fn on turn turnID, which must exist, and touches its
// conversation.
func (s *Store) changeTurn(ctx context.Context, verb string, turnID int64, fn func(*sql.Tx) error) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var conv int64
		err := tx.QueryRowContext(ctx, `SELECT conversation_id FROM turns WHERE id = ?`, turnID).Scan(&conv)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			return err
		}
		return s.touch(ctx, tx, conv)
	})
	if err != nil {
		return fmt.Errorf("%s turn %d: %w", verb, turnID, err)
	}
	return nil
}

// Turns returns the turns of conversation id, oldest first, each with its
// requests and messages. A removed conversation has none to show.
func (s *Store) Turns(ctx context.Context, id int64) ([]chat.Turn, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("reading the turns of conversation %d: %w", id, err)
	}
	defer tx.Rollback()
	turns, err := readTurns(ctx, tx, id)
	if err == nil {
		err = readTurnRows(ctx, tx, id, turns)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the turns of conversation %d: %w", id, err)
	}
	return turns, nil
}

func readTurns(ctx context.Context, tx *sql.Tx, conv int64) ([]chat.Turn, error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.id, t.seq, t.provider, t.model, t.started_at, t.finished_at, t.status,
		t.error_kind, t.error, t.context, t.tools, t.listing_tokens
		FROM turns t JOIN conversations c ON c.id = t.conversation_id
		WHERE t.conversation_id = ? AND c.removed_at IS NULL ORDER BY t.seq`, conv)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	turns := []chat.Turn{}
	for rows.Next() {
		t := chat.Turn{ConversationID: conv, Requests: []chat.RequestRecord{}, Messages: []chat.Message{}}
		var started, status, kind, sc, tools string
		var finished sql.NullString
		if err := rows.Scan(&t.ID, &t.Seq, &t.Provider, &t.Model, &started, &finished, &status, &kind, &t.Error,
			&sc, &tools, &t.ListingTokens); err != nil {
			return nil, err
		}
		t.Status, t.ErrorKind = chat.TurnStatus(status), fault.Kind(kind)
		if t.StartedAt, err = parseTime(started); err != nil {
			return nil, err
		}
		if finished.Valid {
			if t.FinishedAt, err = parseTime(finished.String); err != nil {
				return nil, err
			}
		}
		if err := json.Unmarshal([]byte(sc), &t.Context); err != nil {
			return nil, fmt.Errorf("turn %d: its context: %w", t.Seq, err)
		}
		if err := json.Unmarshal([]byte(tools), &t.Tools); err != nil {
			return nil, fmt.Errorf("turn %d: its tools: %w", t.Seq, err)
		}
		turns = append(turns, t)
	}
	return turns, rows.Err()
}

// readTurnRows fills in the requests and messages of turns.
func readTurnRows(ctx context.Context, tx *sql.Tx, conv int64, turns []chat.Turn) error {
	index := map[int64]*chat.Turn{}
	for i := range turns {
		index[turns[i].ID] = &turns[i]
	}
	for _, q := range []struct {
		query string
		add   func(*chat.Turn, []byte) error
	}{
		{`SELECT r.turn_id, r.record FROM turn_requests r JOIN turns t ON t.id = r.turn_id
			WHERE t.conversation_id = ? ORDER BY r.turn_id, r.round`, func(t *chat.Turn, b []byte) error {
			var r chat.RequestRecord
			err := json.Unmarshal(b, &r)
			t.Requests = append(t.Requests, r)
			return err
		}},
		{`SELECT m.turn_id, m.message FROM turn_messages m JOIN turns t ON t.id = m.turn_id
			WHERE t.conversation_id = ? ORDER BY m.turn_id, m.seq`, func(t *chat.Turn, b []byte) error {
			var m chat.Message
			err := json.Unmarshal(b, &m)
			t.Messages = append(t.Messages, m)
			return err
		}},
		{`SELECT r.turn_id, r.uri FROM turn_relevance r JOIN turns t ON t.id = r.turn_id
			WHERE t.conversation_id = ? ORDER BY r.turn_id, r.uri`, func(t *chat.Turn, b []byte) error {
			t.Relevant = append(t.Relevant, string(b))
			return nil
		}},
	} {
		if err := eachRow(ctx, tx, q.query, conv, func(turnID int64, b []byte) error {
			if t := index[turnID]; t != nil {
				return q.add(t, b)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

func eachRow(ctx context.Context, tx *sql.Tx, query string, arg any, fn func(int64, []byte) error) error {
	rows, err := tx.QueryContext(ctx, query, arg)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return err
		}
		if err := fn(id, b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ToolSettings returns conversation id's tool switches.
func (s *Store) ToolSettings(ctx context.Context, id int64) (chat.ToolSettings, error) {
	out := chat.ToolSettings{Servers: map[string]bool{}}
	err := func() error {
		rows, err := s.db.QueryContext(ctx, `SELECT server, enabled FROM tool_switches WHERE conversation_id = ?`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var server string
			var on bool
			if err := rows.Scan(&server, &on); err != nil {
				return err
			}
			out.Servers[server] = on
		}
		return rows.Err()
	}()
	if err != nil {
		return chat.ToolSettings{}, fmt.Errorf("reading the tool settings of conversation %d: %w", id, err)
	}
	return out, nil
}

// SetServerTools switches server's tools on or off in conversation id.
func (s *Store) SetServerTools(ctx context.Context, id int64, server string, on bool) error {
	return s.toolSetting(ctx, id, "switching the tools of "+server+" in", server,
		`INSERT INTO tool_switches (conversation_id, server, enabled) VALUES (?, ?, ?)
		ON CONFLICT (conversation_id, server) DO UPDATE SET enabled = excluded.enabled`, id, server, on)
}

func (s *Store) toolSetting(ctx context.Context, id int64, verb, server, query string, args ...any) error {
	if server == "" {
		return fmt.Errorf("%s conversation %d: the server name is empty: %w", verb, id, ErrInvalid)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := liveConversation(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s conversation %d: %w", verb, id, err)
	}
	return nil
}

// SetRelevant marks uri as needed by turn turnID (relevant true) or not,
// for the comparison lab.
func (s *Store) SetRelevant(ctx context.Context, turnID int64, uri string, relevant bool) error {
	if uri == "" {
		return fmt.Errorf("marking turn %d: %w", turnID, hostcore.NewUsageError("no resource named"))
	}
	return s.changeTurn(ctx, "marking relevance in", turnID, func(tx *sql.Tx) error {
		q := `INSERT OR IGNORE INTO turn_relevance (turn_id, uri) VALUES (?, ?)`
		if !relevant {
			q = `DELETE FROM turn_relevance WHERE turn_id = ? AND uri = ?`
		}
		_, err := tx.ExecContext(ctx, q, turnID, uri)
		return err
	})
}
