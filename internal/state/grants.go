package state

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/attache/attache/hostcore/consent"
)

var _ consent.GrantStore = (*Store)(nil)

// The consent gate's "Always" grants, per conversation, each given to a
// server's identity (migration step 5): the identity is a digest, never a
// credential. A removed conversation keeps its grants until it is purged
// (the foreign key cascades), so that undoing the removal restores them.

// ToolGrants returns conversation id's grants, by server and tool.
func (s *Store) ToolGrants(ctx context.Context, id int64) ([]consent.ToolGrant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT server, account, identity, tool, granted_at FROM tool_grants
		WHERE conversation_id = ? ORDER BY server, tool`, id)
	if err != nil {
		return nil, fmt.Errorf("reading the grants of conversation %d: %w", id, err)
	}
	defer rows.Close()
	var out []consent.ToolGrant
	for rows.Next() {
		g := consent.ToolGrant{ConversationID: id}
		var at string
		if err := rows.Scan(&g.Server, &g.Account, &g.Identity, &g.Tool, &at); err != nil {
			return nil, fmt.Errorf("reading the grants of conversation %d: %w", id, err)
		}
		if g.GrantedAt, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("reading the grants of conversation %d: %w", id, err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the grants of conversation %d: %w", id, err)
	}
	return out, nil
}

// GrantTool keeps g, replacing the server's earlier grant of the tool in
// the conversation (given, perhaps, to what the server ran before).
func (s *Store) GrantTool(ctx context.Context, g consent.ToolGrant) error {
	if g.Tool == "" || g.Identity == "" {
		return fmt.Errorf("granting a tool of %s in conversation %d: no tool or no identity: %w", g.Server, g.ConversationID, ErrInvalid)
	}
	at := g.GrantedAt
	if at.IsZero() {
		at = s.stamp()
	}
	return s.toolSetting(ctx, g.ConversationID, "granting "+g.Tool+" of "+g.Server+" in", g.Server,
		`INSERT INTO tool_grants (conversation_id, server, account, identity, tool, granted_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (conversation_id, server, tool) DO UPDATE SET account = excluded.account,
			identity = excluded.identity, granted_at = excluded.granted_at`,
		g.ConversationID, g.Server, g.Account, g.Identity, g.Tool, formatTime(at))
}

// RevokeTool forgets the grant of server's tool in conversation id.
func (s *Store) RevokeTool(ctx context.Context, id int64, server, tool string) error {
	return s.toolSetting(ctx, id, "revoking "+tool+" of "+server+" in", server,
		`DELETE FROM tool_grants WHERE conversation_id = ? AND server = ? AND tool = ?`, id, server, tool)
}

// ForgetServerGrants forgets every grant of the server named, in every
// conversation: it was edited or removed.
func (s *Store) ForgetServerGrants(ctx context.Context, server string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM tool_grants WHERE server = ?`, server)
		return err
	})
	if err != nil {
		return fmt.Errorf("forgetting the grants of %s: %w", server, err)
	}
	return nil
}
