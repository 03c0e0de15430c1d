package state

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
)

func TestCreateConversation(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Trip to Lyon", "Trip to Lyon"},
		{"  padded  ", "padded"},
		{"", "Untitled"},
		{" \t\n", "Untitled"},
	}
	s := openTest(t, "")
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			c := newConversation(t, s, tt.title)
			if c.ID == 0 || c.Title != tt.want {
				t.Errorf("CreateConversation(%q) = %+v; want an id and title %q", tt.title, c, tt.want)
			}
			if c.CreatedAt.Location() != time.UTC || !c.UpdatedAt.Equal(c.CreatedAt) {
				t.Errorf("times %v, %v; want equal, in UTC", c.CreatedAt, c.UpdatedAt)
			}
			got, err := s.Conversation(context.Background(), c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("Conversation(%d) differs from what CreateConversation returned (-created +read):\n%s", c.ID, diff)
			}
		})
	}
}

// TestConversationsOrder: the most recently changed first; renaming and
// attaching are changes.
func TestConversationsOrder(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	a, b, c := newConversation(t, s, "a"), newConversation(t, s, "b"), newConversation(t, s, "c")
	titles := func() []string {
		t.Helper()
		var out []string
		for _, c := range mustConversations(t, s) {
			out = append(out, c.Title)
		}
		return out
	}
	if diff := cmp.Diff([]string{"c", "b", "a"}, titles()); diff != "" {
		t.Errorf("after creating (-want +got):\n%s", diff)
	}
	if err := s.RenameConversation(ctx, a.ID, ""); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, s, attachment(b.ID, "mem://1"))
	if diff := cmp.Diff([]string{"b", "Untitled", "c"}, titles()); diff != "" {
		t.Errorf("after renaming a to blank and attaching to b (-want +got):\n%s", diff)
	}
	if err := s.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b", "Untitled"}, titles()); diff != "" {
		t.Errorf("after removing c (-want +got):\n%s", diff)
	}
}

// TestMissingIDsAreNotFound: every method given an id that does not exist
// fails with an error that matches state's and hostcore's not-found.
func TestMissingIDsAreNotFound(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	const id = 404
	tests := []struct {
		name string
		call func() error
	}{
		{"Conversation", func() error { _, err := s.Conversation(ctx, id); return err }},
		{"RenameConversation", func() error { return s.RenameConversation(ctx, id, "x") }},
		{"RemoveConversation", func() error { return s.RemoveConversation(ctx, id) }},
		{"RestoreConversation", func() error { return s.RestoreConversation(ctx, id) }},
		{"AddAttachment", func() error { _, err := s.AddAttachment(ctx, attachment(id, "mem://x")); return err }},
		{"Attachments", func() error { _, err := s.Attachments(ctx, id); return err }},
		{"UpdateAttachment", func() error { return s.UpdateAttachment(ctx, hostcore.Attachment{ID: id}) }},
		{"RemoveAttachment", func() error { return s.RemoveAttachment(ctx, id) }},
		{"RestoreAttachment", func() error { return s.RestoreAttachment(ctx, id) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, ErrNotFound) || !errors.Is(err, fault.ErrNotFound) {
				t.Errorf("%s(%d): %v; want state.ErrNotFound and fault.ErrNotFound", tt.name, id, err)
			}
		})
	}
	if n := count(t, s, "conversations") + count(t, s, "attachments"); n != 0 {
		t.Errorf("%d rows written by calls that failed", n)
	}
}

// TestRemoveConversationUndo: removing a conversation hides it and its
// attachments; restoring brings back both, but not an attachment removed
// on its own before.
func TestRemoveConversationUndo(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "c")
	kept, gone := mustAdd(t, s, attachment(c.ID, "mem://kept")), mustAdd(t, s, attachment(c.ID, "mem://gone"))
	if err := s.RemoveAttachment(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Attachments(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Attachments of a removed conversation: %v; want ErrNotFound", err)
	}
	if err := s.RemoveAttachment(ctx, kept.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("RemoveAttachment in a removed conversation: %v; want ErrNotFound", err)
	}
	if err := s.RemoveConversation(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing twice: %v; want ErrNotFound", err)
	}
	if err := s.RestoreConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]hostcore.Attachment{kept}, mustAttachments(t, s, c.ID)); diff != "" {
		t.Errorf("attachments after restoring the conversation (-want +got):\n%s", diff)
	}
}

// TestRemovedConversationGoneAfterClose: a new session cannot restore what
// the last one removed, and its attachments go with it.
func TestRemovedConversationGoneAfterClose(t *testing.T) {
	path := DefaultPath(t.TempDir())
	s, ctx := openTest(t, path), context.Background()
	c, other := newConversation(t, s, "c"), newConversation(t, s, "other")
	mustAdd(t, s, attachment(c.ID, "mem://1"))
	mustAdd(t, s, attachment(other.ID, "mem://1"))
	if err := s.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTest(t, path)
	if err := s.RestoreConversation(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("restoring in a new session: %v; want ErrNotFound", err)
	}
	if n, m := count(t, s, "conversations"), count(t, s, "attachments"); n != 1 || m != 1 {
		t.Errorf("%d conversations, %d attachments left; want the other one and its attachment", n, m)
	}
}
