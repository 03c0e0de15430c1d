package state

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/consent"
)

// Grants are kept by server and tool, each with the identity it was given
// to; a new grant of the same tool replaces the old one (another identity,
// after the server was edited); revoking forgets one, and forgetting a
// server forgets all of its grants in every conversation.
func TestToolGrants(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c, d := newConversation(t, s, "chat"), newConversation(t, s, "other")
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	grant := func(conv int64, server, identity, tool string) {
		t.Helper()
		if err := s.GrantTool(ctx, consent.ToolGrant{ConversationID: conv, Server: server, Account: "acme",
			Identity: identity, Tool: tool, GrantedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	grant(c.ID, "kgA", "v1:old", "archive")
	grant(c.ID, "kgA", "v1:new", "archive") // the server was edited: the new one replaces it
	grant(c.ID, "kgA", "v1:new", "remember")
	grant(c.ID, "kg", "v1:kg", "read_graph")
	grant(d.ID, "kgA", "v1:new", "archive")
	if err := s.RevokeTool(ctx, c.ID, "kgA", "remember"); err != nil {
		t.Fatal(err)
	}
	got, err := s.ToolGrants(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []consent.ToolGrant{
		{ConversationID: c.ID, Server: "kg", Account: "acme", Identity: "v1:kg", Tool: "read_graph", GrantedAt: at},
		{ConversationID: c.ID, Server: "kgA", Account: "acme", Identity: "v1:new", Tool: "archive", GrantedAt: at},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolGrants (-want +got):\n%s", diff)
	}
	if err := s.ForgetServerGrants(ctx, "kgA"); err != nil {
		t.Fatal(err)
	}
	for conv, n := range map[int64]int{c.ID: 1, d.ID: 0} {
		if got, err := s.ToolGrants(ctx, conv); err != nil || len(got) != n {
			t.Errorf("conversation %d after forgetting kgA: %+v, %v; want %d grants", conv, got, err, n)
		}
	}
	if err := s.GrantTool(ctx, consent.ToolGrant{ConversationID: 999, Server: "demo", Identity: "v1:x", Tool: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a grant in a missing conversation: %v; want ErrNotFound", err)
	}
	if err := s.GrantTool(ctx, consent.ToolGrant{ConversationID: c.ID, Server: "demo", Tool: "x"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a grant without an identity: %v; want ErrInvalid", err)
	}
}

// A file at schema version 4, whose grants name a server only, migrates:
// its grants are dropped (nothing says what the server ran when they were
// given, so the next call asks again), everything else stays, and the
// new table takes grants by identity.
func TestMigrateGrantsFromVersion4(t *testing.T) {
	path := t.TempDir() + "/state.db"
	db, ctx := rawDB(t, path), context.Background()
	if err := migrate(ctx, db, migrations[:4]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO conversations (id, title, created_at, updated_at) VALUES (1, 'old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
		`INSERT INTO tool_switches (conversation_id, server, enabled) VALUES (1, 'kgA', 1)`,
		`INSERT INTO tool_grants (conversation_id, server, tool, granted_at) VALUES (1, 'kgA', 'archive', '2026-01-01T00:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := openTest(t, path)
	if v := userVersion(t, s.db); v != len(migrations) {
		t.Fatalf("user_version %d; want %d", v, len(migrations))
	}
	if got, err := s.ToolGrants(ctx, 1); err != nil || len(got) != 0 {
		t.Errorf("grants of version 4 after the migration: %+v, %v; want none", got, err)
	}
	if st, err := s.ToolSettings(ctx, 1); err != nil || !st.Servers["kgA"] {
		t.Errorf("the tool switch was lost: %+v, %v", st, err)
	}
	if err := s.GrantTool(ctx, consent.ToolGrant{ConversationID: 1, Server: "kgA", Account: "default", Identity: "v1:abc", Tool: "archive"}); err != nil {
		t.Errorf("a grant by identity after the migration: %v", err)
	}
}
