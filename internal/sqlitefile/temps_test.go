package sqlitefile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/attache/attache/internal/namedfile"
)

// deadPID returns the pid of a process that has ended.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestStaleTempsAreRemoved: a process killed between writing its
// <path>.clean.PID.tmp and renaming it left the file for good; the next
// open removes those no live process can still rename (a dead pid's, or
// any over an hour old), and leaves a live process's fresh one, which it
// may be renaming right now, and this process's own.
func TestStaleTempsAreRemoved(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	dead, live := deadPID(t), os.Getppid()
	files := map[string]bool{ // name: removed
		fmt.Sprintf("%s.clean.%d.tmp", path, dead):          true, // as earlier versions named it
		fmt.Sprintf("%s.clean.%d-7.tmp", path, dead):        true,
		fmt.Sprintf("%s.clean.%d-8.tmp", path, live):        false,
		fmt.Sprintf("%s.clean.%d-9.tmp", path, live):        true, // two hours old
		fmt.Sprintf("%s.clean.%d-1.tmp", path, os.Getpid()): false,
		path + ".clean.other.tmp":                           false, // not a pid, and fresh
	}
	for name := range files {
		if err := os.WriteFile(name, []byte("1 2 3\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(fmt.Sprintf("%s.clean.%d-9.tmp", path, live), old, old)

	db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	s.End()
	for name, removed := range files {
		_, err := os.Stat(name)
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", filepath.Base(name), gone, removed)
		}
	}
}

// A FIFO where the database should be is refused at once: SQLite's read of
// its header, and an open to look at it, would wait for ever.
func TestOpenRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := OpenSession(context.Background(), path, "_journal_mode=WAL", steps, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, namedfile.ErrNotRegular) {
			t.Errorf("open of a FIFO = %v; want ErrNotRegular", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the open of a FIFO still waits after a minute")
	}
}
