package state

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

func ptr(f float64) *float64 { return &f }

// TestAttachmentRoundTrip: every field comes back as it went in, from
// AddAttachment, from Attachments and after reopening the file; a priority
// of 0 is not confused with none, and times come back in UTC.
func TestAttachmentRoundTrip(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	tests := []struct {
		name string
		in   hostcore.Attachment
	}{
		{"every field", hostcore.Attachment{
			Server: hostcore.ServerRef{Name: "notes", Command: "notes-server", Args: []string{"--db", "x y"},
				Cwd: "/srv", URL: "http://127.0.0.1:8080/mcp"},
			Account: "work", URI: "threengram://memory/42", Origin: hostcore.FromTemplate,
			Template: "threengram://memory/{id}", Title: "Memory", Pinned: true,
			AddedAt:          time.Date(2024, 12, 31, 23, 59, 59, 987654321, cet),
			PriorityOverride: ptr(0.7),
			Annotations: pack.Annotations{Audience: []string{"user", "assistant"}, Priority: ptr(0.25),
				LastModified: "2024-12-01T10:00:00Z"},
		}},
		{"zero priorities", hostcore.Attachment{
			Server: hostcore.ServerRef{Name: "mem"}, URI: "mem://zero", Origin: hostcore.FromList,
			AddedAt:          time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
			PriorityOverride: ptr(0), Annotations: pack.Annotations{Priority: ptr(0)},
		}},
		{"no priorities, no time", hostcore.Attachment{
			Server: hostcore.ServerRef{Name: "mem"}, URI: "mem://none", Origin: hostcore.FromID,
		}},
	}
	path := DefaultPath(t.TempDir())
	s := openTest(t, path)
	c := newConversation(t, s, "c")
	var want []hostcore.Attachment
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.ConversationID = c.ID
			got := mustAdd(t, s, tt.in)
			w := tt.in
			w.ID, w.Position = got.ID, i+1
			if w.AddedAt.IsZero() {
				w.AddedAt = got.AddedAt
				if got.AddedAt.IsZero() {
					t.Error("AddedAt not set from the clock")
				}
			}
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("AddAttachment returned (-want +got):\n%s", diff)
			}
			if got.AddedAt.Location() != time.UTC {
				t.Errorf("AddedAt in %v; want UTC", got.AddedAt.Location())
			}
			want = append(want, w)
		})
	}
	if diff := cmp.Diff(want, mustAttachments(t, s, c.ID)); diff != "" {
		t.Errorf("Attachments (-want +got):\n%s", diff)
	}
	s.Close()
	if diff := cmp.Diff(want, mustAttachments(t, openTest(t, path), c.ID)); diff != "" {
		t.Errorf("Attachments after reopening (-want +got):\n%s", diff)
	}
}

// TestTimesStoredAsRFC3339UTC: stored times are RFC 3339, UTC, with all
// nine digits, so that they sort as text. The conversation is created at
// testClock's second tick: Open reads the first, for its purge.
func TestTimesStoredAsRFC3339UTC(t *testing.T) {
	s := openTest(t, "")
	c := newConversation(t, s, "c")
	a := attachment(c.ID, "mem://t")
	a.AddedAt = time.Date(2024, 12, 31, 23, 59, 59, 500000000, time.FixedZone("CET", 3600))
	mustAdd(t, s, a)
	var added, created string
	err := s.db.QueryRow(`SELECT a.added_at, c.created_at FROM attachments a
		JOIN conversations c ON c.id = a.conversation_id`).Scan(&added, &created)
	if err != nil {
		t.Fatal(err)
	}
	if added != "2024-12-31T22:59:59.500000000Z" || created != "2025-03-04T04:06:09.123456789Z" {
		t.Errorf("stored added_at %s, created_at %s; want 2024-12-31T22:59:59.500000000Z, 2025-03-04T04:06:09.123456789Z",
			added, created)
	}
}

// TestUpdateAttachment saves Pinned, PriorityOverride and Annotations, and
// nothing else.
func TestUpdateAttachment(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "c")
	a := mustAdd(t, s, attachment(c.ID, "mem://u"))
	want := a
	want.Pinned, want.PriorityOverride = true, ptr(0)
	want.Annotations = pack.Annotations{Audience: []string{"assistant"}, Priority: ptr(1)}
	change := want
	change.URI, change.Title, change.Server.Name, change.Position = "mem://other", "other", "other", 99
	for _, step := range []struct{ change, want hostcore.Attachment }{{change, want}, {a, a}} {
		if err := s.UpdateAttachment(ctx, step.change); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]hostcore.Attachment{step.want}, mustAttachments(t, s, c.ID)); diff != "" {
			t.Errorf("after UpdateAttachment (-want +got):\n%s", diff)
		}
	}
}

func TestAddAttachmentRefusesInvalid(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "c")
	tests := []struct {
		name, says string
		edit       func(*hostcore.Attachment)
	}{
		{"empty uri", "uri is empty", func(a *hostcore.Attachment) { a.URI = "" }},
		{"empty server name", "server name is empty", func(a *hostcore.Attachment) { a.Server = hostcore.ServerRef{URL: "http://x"} }},
		{"empty origin", "unknown origin", func(a *hostcore.Attachment) { a.Origin = "" }},
		{"unknown origin", "unknown origin", func(a *hostcore.Attachment) { a.Origin = "clipboard" }},
		{"priority above 1", "outside 0..1", func(a *hostcore.Attachment) { a.PriorityOverride = ptr(1.5) }},
		{"negative priority", "outside 0..1", func(a *hostcore.Attachment) { a.PriorityOverride = ptr(-0.1) }},
		{"NaN priority", "outside 0..1", func(a *hostcore.Attachment) { a.PriorityOverride = ptr(math.NaN()) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := attachment(c.ID, "mem://v")
			tt.edit(&a)
			_, err := s.AddAttachment(ctx, a)
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, fault.ErrInvalidParams) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("AddAttachment: %v; want ErrInvalid, fault.ErrInvalidParams and %q", err, tt.says)
			}
		})
	}
	if n := count(t, s, "attachments"); n != 0 {
		t.Errorf("%d attachments stored; want none", n)
	}
	a := mustAdd(t, s, attachment(c.ID, "mem://v"))
	a.PriorityOverride = ptr(2)
	if err := s.UpdateAttachment(ctx, a); !errors.Is(err, ErrInvalid) {
		t.Errorf("UpdateAttachment with priority 2: %v; want ErrInvalid", err)
	}
}

// TestDuplicateAttachment: the same server name, account and uri in one
// conversation is one attachment; anything else differing is another.
func TestDuplicateAttachment(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c, other := newConversation(t, s, "c"), newConversation(t, s, "other")
	first := mustAdd(t, s, attachment(c.ID, "mem://d"))
	same := attachment(c.ID, "mem://d")
	same.Title, same.Server.Command, same.Pinned = "again", "mem-server", true
	if diff := cmp.Diff(first, mustAdd(t, s, same)); diff != "" {
		t.Errorf("attaching again returned another attachment (-first +again):\n%s", diff)
	}
	tests := []struct {
		name string
		edit func(*hostcore.Attachment)
	}{
		{"another account", func(a *hostcore.Attachment) { a.Account = "work" }},
		{"another server", func(a *hostcore.Attachment) { a.Server.Name = "mem2" }},
		{"another uri", func(a *hostcore.Attachment) { a.URI = "mem://e" }},
		{"another conversation", func(a *hostcore.Attachment) { a.ConversationID = other.ID }},
	}
	for _, tt := range tests {
		a := attachment(c.ID, "mem://d")
		tt.edit(&a)
		if got := mustAdd(t, s, a); got.ID == first.ID {
			t.Errorf("%s: returned the first attachment; want a new one", tt.name)
		}
	}
	if n := count(t, s, "attachments"); n != 1+len(tests) {
		t.Errorf("%d rows; want %d", n, 1+len(tests))
	}

	if err := s.RemoveAttachment(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	again := mustAdd(t, s, attachment(c.ID, "mem://d"))
	if again.ID == first.ID {
		t.Fatal("attaching a removed resource again returned the removed attachment")
	}
	if err := s.RestoreAttachment(ctx, first.ID); !errors.Is(err, ErrConflict) {
		t.Errorf("restoring while attached again: %v; want ErrConflict", err)
	}
	if err := s.RemoveAttachment(ctx, again.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RestoreAttachment(ctx, first.ID); err != nil {
		t.Errorf("restoring once the new one is removed: %v", err)
	}
}

func TestRemoveAttachmentUndo(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "c")
	all := []hostcore.Attachment{mustAdd(t, s, attachment(c.ID, "mem://a")),
		mustAdd(t, s, attachment(c.ID, "mem://b")), mustAdd(t, s, attachment(c.ID, "mem://c"))}
	check := func(when string, want []hostcore.Attachment) {
		t.Helper()
		if diff := cmp.Diff(want, mustAttachments(t, s, c.ID)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", when, diff)
		}
	}
	if err := s.RemoveAttachment(ctx, all[1].ID); err != nil {
		t.Fatal(err)
	}
	check("after removing b", []hostcore.Attachment{all[0], all[2]})
	if err := s.RemoveAttachment(ctx, all[1].ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing twice: %v; want ErrNotFound", err)
	}
	if err := s.UpdateAttachment(ctx, all[1]); !errors.Is(err, ErrNotFound) {
		t.Errorf("updating a removed attachment: %v; want ErrNotFound", err)
	}
	for range 2 { // restoring what is not removed does nothing
		if err := s.RestoreAttachment(ctx, all[1].ID); err != nil {
			t.Fatal(err)
		}
	}
	check("after restoring b", all)

	// Removed attachments keep their places: one attached after a removal
	// comes after it, and the removed one returns to where it was.
	if err := s.RemoveAttachment(ctx, all[2].ID); err != nil {
		t.Fatal(err)
	}
	d := mustAdd(t, s, attachment(c.ID, "mem://d"))
	if err := s.RestoreAttachment(ctx, all[2].ID); err != nil {
		t.Fatal(err)
	}
	check("after removing c, adding d and restoring c", append(all, d))
}

// TestRemovedAttachmentGoneAfterClose: Close ends the session; the next
// cannot restore what this one removed, and its row is gone.
func TestRemovedAttachmentGoneAfterClose(t *testing.T) {
	path := DefaultPath(t.TempDir())
	s, ctx := openTest(t, path), context.Background()
	c := newConversation(t, s, "c")
	mustAdd(t, s, attachment(c.ID, "mem://a"))
	b := mustAdd(t, s, attachment(c.ID, "mem://b"))
	if err := s.RemoveAttachment(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := rawDB(t, path).QueryRow("SELECT count(*) FROM attachments").Scan(&n); err != nil || n != 1 {
		t.Errorf("%d attachment rows (%v) after Close; want 1", n, err)
	}
	s = openTest(t, path)
	if err := s.RestoreAttachment(ctx, b.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("restoring in a new session: %v; want ErrNotFound", err)
	}
}

// TestOpenPurgesWhatADeadSessionRemoved: a process that dies never
// closes; the rows it removed more than a day ago are deleted when the
// next session opens, and the recent ones are left, since that session
// may still be running.
func TestOpenPurgesWhatADeadSessionRemoved(t *testing.T) {
	path := DefaultPath(t.TempDir())
	s := openTest(t, path)
	c, gone := newConversation(t, s, "c"), newConversation(t, s, "gone")
	newConversation(t, s, "recent")
	mustAdd(t, s, attachment(c.ID, "mem://a"))
	mustAdd(t, s, attachment(c.ID, "mem://b"))
	mustAdd(t, s, attachment(c.ID, "mem://c"))
	mustAdd(t, s, attachment(gone.ID, "mem://a"))
	s.Close()
	// Leave the file as a dead session would: removals not purged. The
	// next Open reads testClock's first tick, 2025-03-04T04:06:08Z.
	db := rawDB(t, path)
	if _, err := db.Exec(`UPDATE attachments SET removed_at = '2025-03-02T00:00:00.000000000Z',
			removed_by = 'dead' WHERE uri = 'mem://b';
		UPDATE attachments SET removed_at = '2025-03-04T03:00:00.000000000Z',
			removed_by = 'dead' WHERE uri = 'mem://c';
		UPDATE conversations SET removed_at = '2025-03-02T00:00:00.000000000Z',
			removed_by = 'dead' WHERE title = 'gone';
		UPDATE conversations SET removed_at = '2025-03-04T03:00:00.000000000Z',
			removed_by = 'dead' WHERE title = 'recent'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = openTest(t, path)
	if n, m := count(t, s, "conversations"), count(t, s, "attachments"); n != 2 || m != 2 {
		t.Errorf("%d conversations, %d attachments; want 2 (c, recent) and 2 (mem://a, mem://c of c)", n, m)
	}
}

// TestOpenScrubsUserinfo: an attachment remembered by an earlier version
// with the URL's user:password@ loses it at the next Open, and the file and
// its log keep no copy of the password.
func TestOpenScrubsUserinfo(t *testing.T) {
	const secret = "pa55-w0rd-f0r-the-test"
	path := DefaultPath(t.TempDir())
	s := openTest(t, path)
	c := newConversation(t, s, "c")
	a := mustAdd(t, s, hostcore.Attachment{ConversationID: c.ID, URI: "x://1", Origin: hostcore.FromList,
		Server: hostcore.ServerRef{Name: "ad-hoc", URL: "https://me:" + secret + "@example.test/mcp"}})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTest(t, path)
	got, err := s.Attachments(context.Background(), c.ID)
	if err != nil || len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("attachments %v, %v", got, err)
	}
	if got[0].Server.URL != "https://example.test/mcp" {
		t.Errorf("URL %q; want the userinfo gone", got[0].Server.URL)
	}
	s.Close()
	for _, p := range []string{path, path + "-wal"} {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s still holds the password", p)
		}
	}
}
