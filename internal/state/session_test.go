package state

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// clock is a time that a test sets; several Stores may share it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// openAt opens the state file at path with clk, and closes it when the
// test ends.
func openAt(t *testing.T, path string, clk *clock) *Store {
	t.Helper()
	s, err := Open(path, &Options{Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestOtherSessionLeavesRemovalsAlone is the desktop app and an attachectl
// run beside it: store a removes a conversation and an attachment, store b
// opens the same file and closes, and a can still undo both. b cannot
// restore what a removed.
func TestOtherSessionLeavesRemovalsAlone(t *testing.T) {
	path, ctx := DefaultPath(t.TempDir()), context.Background()
	a := openTest(t, path)
	c, other := newConversation(t, a, "c"), newConversation(t, a, "other")
	mustAdd(t, a, attachment(c.ID, "mem://1"))
	kept := mustAdd(t, a, attachment(other.ID, "mem://1"))
	removed := mustAdd(t, a, attachment(other.ID, "mem://2"))
	if err := a.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveAttachment(ctx, removed.ID); err != nil {
		t.Fatal(err)
	}

	b := openTest(t, path)
	if err := b.RestoreConversation(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("b restoring a's conversation: %v; want ErrNotFound", err)
	}
	if err := b.RestoreAttachment(ctx, removed.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("b restoring a's attachment: %v; want ErrNotFound", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	if err := a.RestoreConversation(ctx, c.ID); err != nil {
		t.Errorf("a restoring its conversation after b closed: %v", err)
	}
	if err := a.RestoreAttachment(ctx, removed.ID); err != nil {
		t.Errorf("a restoring its attachment after b closed: %v", err)
	}
	if n := len(mustConversations(t, a)); n != 2 {
		t.Errorf("%d conversations after a's undo; want 2", n)
	}
	if got := mustAttachments(t, a, other.ID); len(got) != 2 || got[0].ID != kept.ID || got[1].ID != removed.ID {
		t.Errorf("attachments of other after a's undo: %+v; want %d and %d", got, kept.ID, removed.ID)
	}
	if n := len(mustAttachments(t, a, c.ID)); n != 1 {
		t.Errorf("%d attachments of c after a's undo; want 1", n)
	}
}

// TestCloseDeletesOnlyItsOwnRemovals: a's Close deletes what a removed,
// with its attachments, and leaves what b removed for b to restore.
func TestCloseDeletesOnlyItsOwnRemovals(t *testing.T) {
	path, ctx := DefaultPath(t.TempDir()), context.Background()
	a, b := openTest(t, path), openTest(t, path)
	mine, theirs, live := newConversation(t, a, "a's"), newConversation(t, a, "b's"), newConversation(t, a, "live")
	mustAdd(t, a, attachment(mine.ID, "mem://1"))
	mustAdd(t, a, attachment(theirs.ID, "mem://1"))
	mustAdd(t, a, attachment(live.ID, "mem://1"))
	gone := mustAdd(t, a, attachment(live.ID, "mem://2"))
	if err := a.RemoveConversation(ctx, mine.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveAttachment(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveConversation(ctx, theirs.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// Left: b's conversation and live, with one attachment each.
	if n, m := count(t, b, "conversations"), count(t, b, "attachments"); n != 2 || m != 2 {
		t.Errorf("after a's Close: %d conversations, %d attachments; want 2 and 2", n, m)
	}
	if err := b.RestoreConversation(ctx, theirs.ID); err != nil {
		t.Errorf("b restoring after a's Close: %v", err)
	}
	if n := len(mustAttachments(t, b, theirs.ID)); n != 1 {
		t.Errorf("%d attachments of b's restored conversation; want 1", n)
	}
}

// TestOpenPurgesStaleRemovals: a session that removed a row more than a
// day ago (by the injected clock) and never closed loses it at the next
// Open; a row it removed less than a day ago it can still restore.
func TestOpenPurgesStaleRemovals(t *testing.T) {
	path, ctx := DefaultPath(t.TempDir()), context.Background()
	start := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	clk := &clock{t: start}
	a := openAt(t, path, clk)
	old, recent := newConversation(t, a, "old"), newConversation(t, a, "recent")
	mustAdd(t, a, attachment(old.ID, "mem://1"))
	if err := a.RemoveConversation(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	clk.set(start.Add(2 * time.Hour))
	if err := a.RemoveConversation(ctx, recent.ID); err != nil {
		t.Fatal(err)
	}

	clk.set(start.Add(staleRemoval + time.Hour))
	b := openAt(t, path, clk)
	if n, m := count(t, b, "conversations"), count(t, b, "attachments"); n != 1 || m != 0 {
		t.Errorf("after b's Open: %d conversations, %d attachments; want 1 (recent) and 0", n, m)
	}
	if err := a.RestoreConversation(ctx, old.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("restoring a conversation removed a day ago: %v; want ErrNotFound", err)
	}
	if err := a.RestoreConversation(ctx, recent.ID); err != nil {
		t.Errorf("restoring a conversation removed 23 hours ago: %v", err)
	}
}

// TestMigratedFileKeepsRecentRemovals: a file from before removed_by, left
// by a session that died, migrates, and Open purges only its stale
// removals.
func TestMigratedFileKeepsRecentRemovals(t *testing.T) {
	path := DefaultPath(t.TempDir())
	db := rawDB(t, path)
	if err := migrate(context.Background(), db, migrations[:1]); err != nil {
		t.Fatal(err)
	}
	_, err := db.Exec(`INSERT INTO conversations (title, created_at, updated_at, removed_at) VALUES
		('stale', '', '', '2025-03-01T00:00:00.000000000Z'),
		('recent', '', '', '2025-03-04T00:00:00.000000000Z'),
		('live', '', '', NULL)`)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openAt(t, path, &clock{t: time.Date(2025, 3, 4, 12, 0, 0, 0, time.UTC)})
	if v := userVersion(t, s.db); v != len(migrations) {
		t.Errorf("user_version %d; want %d", v, len(migrations))
	}
	var titles []string
	rows, err := s.db.Query(`SELECT title FROM conversations ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, title)
	}
	if len(titles) != 2 || titles[0] != "recent" || titles[1] != "live" {
		t.Errorf("conversations %v after Open; want [recent live]", titles)
	}
}

// sessionEnv names the state file TestHelperStateSession opens; it is set
// only in the process TestOtherProcessLeavesRemovalsAlone starts.
const sessionEnv = "ATTACHE_STATE_SESSION"

// TestHelperStateSession is an attachectl run in its own process: it
// opens the state file, removes a conversation of its own, and closes.
func TestHelperStateSession(t *testing.T) {
	path := os.Getenv(sessionEnv)
	if path == "" {
		t.Skip("the other process of TestOtherProcessLeavesRemovalsAlone; runs only in its subprocess")
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := s.CreateConversation(ctx, "the other process's")
	if err == nil {
		err = s.RemoveConversation(ctx, c.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOtherProcessLeavesRemovalsAlone: another process opening and closing
// the file, and purging its own removal at its Close, leaves this one's
// Undo working. Both use the real clock.
func TestOtherProcessLeavesRemovalsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	path, ctx := DefaultPath(t.TempDir()), context.Background()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c := newConversation(t, s, "c")
	a := mustAdd(t, s, attachment(c.ID, "mem://1"))
	if err := s.RemoveAttachment(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStateSession$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), sessionEnv+"="+path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("--- PASS: TestHelperStateSession")) {
		t.Fatalf("the other process did not run its session:\n%s", out.String())
	}

	if n := count(t, s, "conversations"); n != 1 {
		t.Errorf("%d conversation rows after the other process; want 1: ours, still removed, and not its own", n)
	}
	if err := s.RestoreConversation(ctx, c.ID); err != nil {
		t.Errorf("restoring the conversation after the other process: %v", err)
	}
	if err := s.RestoreAttachment(ctx, a.ID); err != nil {
		t.Errorf("restoring the attachment after the other process: %v", err)
	}
	if got := mustAttachments(t, s, c.ID); len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("attachments after undo: %+v; want attachment %d", got, a.ID)
	}
}
