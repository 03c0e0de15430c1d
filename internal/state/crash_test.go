package state

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writerEnv names the state file TestHelperStateWriter writes to; it is
// set only in the process TestKilledWriterLosesNothing starts.
const writerEnv = "ATTACHE_STATE_CRASH_WRITER"

// TestHelperStateWriter is the process that gets killed. It attaches for
// ever (a minute at most, should its parent vanish), and after each
// AddAttachment returns appends the id to path.acked and syncs it: what
// that file holds, the Store has acknowledged. Every fifth attachment is
// also updated, so the kill may land in either kind of write.
func TestHelperStateWriter(t *testing.T) {
	path := os.Getenv(writerEnv)
	if path == "" {
		t.Skip("the writer of TestKilledWriterLosesNothing; runs only in its subprocess")
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := s.CreateConversation(ctx, "crash")
	if err != nil {
		t.Fatal(err)
	}
	acked, err := os.OpenFile(path+".acked", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	for start, i := time.Now(), 0; time.Since(start) < time.Minute; i++ {
		a := attachment(c.ID, fmt.Sprintf("mem://%d/%d", c.ID, i))
		a.Title = strings.Repeat("t", i%2000) // some rows spill into overflow pages
		if a, err = s.AddAttachment(ctx, a); err == nil && i%5 == 0 {
			a.Pinned, a.Annotations.Priority = true, ptr(0.5)
			err = s.UpdateAttachment(ctx, a)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fmt.Fprintln(acked, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := acked.Sync(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKilledWriterLosesNothing is the acceptance point: a process
// killed (SIGKILL) in the middle of writing loses no attachment the Store
// had acknowledged, and leaves a file that passes integrity_check. Three
// rounds over the same file, so that later rounds recover a file that
// has been recovered before.
func TestKilledWriterLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills subprocesses")
	}
	path := DefaultPath(t.TempDir())
	for round := range 3 {
		killWriter(t, path, 40*(round+1))
		if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
			t.Fatalf("round %d: no write-ahead log after the kill (%v): the writer was not killed mid-flight", round, err)
		}
		acked := ackedIDs(t, path+".acked")
		s := openTest(t, path)
		var present int
		for _, c := range mustConversations(t, s) {
			for _, a := range mustAttachments(t, s, c.ID) {
				present++
				delete(acked, a.ID)
			}
		}
		if len(acked) > 0 {
			t.Errorf("round %d: %d acknowledged attachments lost, among them %v", round, len(acked), firstKey(acked))
		}
		var check string
		if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("round %d: integrity_check %q, %v; want ok", round, check, err)
		}
		t.Logf("round %d: %d attachments present, all acknowledged ones among them", round, present)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// killWriter starts TestHelperStateWriter on path, waits (polling, within
// a deadline) until path.acked holds at least n ids, and kills it.
func killWriter(t *testing.T, path string, n int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStateWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), writerEnv+"="+path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() }) // should the test fail before the kill
	base := len(ackedIDs(t, path+".acked"))
	tick, deadline := time.NewTicker(5*time.Millisecond), time.After(30*time.Second)
	defer tick.Stop()
	for len(ackedIDs(t, path+".acked")) < base+n {
		select {
		case err := <-exited:
			t.Fatalf("the writer exited (%v) before it was killed:\n%s", err, out.String())
		case <-deadline:
			t.Fatalf("the writer acknowledged fewer than %d attachments in 30s:\n%s", n, out.String())
		case <-tick.C:
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
}

// ackedIDs reads the ids in path, leaving out a last line the kill cut
// short (its id was not acknowledged).
func ackedIDs(t *testing.T, path string) map[int64]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int64]bool{}
	lines := strings.Split(string(b), "\n")
	for _, line := range lines[:len(lines)-1] { // the last is "" or cut short
		id, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ids[id] = true
	}
	return ids
}

func firstKey(m map[int64]bool) int64 {
	for k := range m {
		return k
	}
	return 0
}
