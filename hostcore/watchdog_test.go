package hostcore

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// group starts a shell in a process group of its own that starts a child
// and waits; it returns the shell's pid (the group's id) and the child's.
func group(t *testing.T) (leader, child int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `trap '' TERM HUP; sleep 300 & echo $!; wait`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	line, err := bufio.NewReader(out).ReadString('\n')
	if _, err2 := fmt.Sscan(strings.TrimSpace(line), &child); err != nil || err2 != nil {
		t.Fatalf("no child pid from the group: %q, %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd.Process.Pid, child
}

// gone reports whether pid has exited (a zombie not yet reaped counts).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	f := strings.Fields(string(b))
	return err == nil && len(f) > 2 && f[2] == "Z"
}

// TestWatchdogKillsListedGroups: when the host's end of the pipe closes
// (as it does however the host dies), the watchdog kills every group still
// listed, children included, and none that was unlisted.
func TestWatchdogKillsListedGroups(t *testing.T) {
	w := &watchdog{log: slog.New(slog.DiscardHandler)}
	listed, listedChild := group(t)
	unlisted, unlistedChild := group(t)
	w.add(listed)
	w.add(unlisted)
	w.remove(unlisted)
	w.close()
	deadline := time.Now().Add(10 * time.Second)
	for !gone(listed) || !gone(listedChild) {
		if time.Now().After(deadline) {
			t.Fatalf("group %d (child %d) still runs after the watchdog's stdin closed", listed, listedChild)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if gone(unlisted) || gone(unlistedChild) {
		t.Errorf("the watchdog killed group %d, which was unlisted", unlisted)
	}
}
