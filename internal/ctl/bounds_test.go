package ctl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command's bounds, as a person meets them: whatever it names or is
// blocked on, it ends within its budget (--timeout, and a second), and
// within a second of SIGTERM, with its memory under maxPeakRSS.
const maxPeakRSS = 300 << 20

// bounded is how a run of attachectl ended.
type bounded struct {
	code    int            // exit code, or -1 when killed by a signal
	signal  syscall.Signal // the signal that killed it
	elapsed time.Duration  // from the start, or from the signal when one was sent
	peakRSS int64          // bytes, from wait4's rusage
	stderr  string
}

// runBounded runs attachectl with stdin (nil: none) and, if signalWhen is
// set, sends it SIGTERM once signalWhen(pid) holds. It kills the process
// should it outlive limit, and fails the test then.
func runBounded(t *testing.T, env []string, stdin *os.File, limit time.Duration, signalWhen func(pid int) bool, args ...string) bounded {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if signalWhen != nil {
		within(t, 30*time.Second, "attachectl reaches the wait", func() bool { return signalWhen(cmd.Process.Pid) })
		start = time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(limit + 5*time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("attachectl %s still ran %s later (stderr %q)", strings.Join(args, " "), limit+5*time.Second, stderr.String())
	}
	b := bounded{elapsed: time.Since(start), stderr: stderr.String(), peakRSS: cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
		b.code, b.signal = -1, ee.Sys().(syscall.WaitStatus).Signal()
	case errors.As(err, &ee):
		b.code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	t.Logf("%s: exit %d signal %v after %s, peak RSS %d MiB", strings.Join(args, " "), b.code, b.signal, b.elapsed.Round(time.Millisecond), b.peakRSS>>20)
	if b.elapsed > limit {
		t.Errorf("ended %s after it started (or was signalled); want within %s", b.elapsed, limit)
	}
	if b.peakRSS > maxPeakRSS {
		t.Errorf("peak RSS %d MiB; want under %d MiB", b.peakRSS>>20, maxPeakRSS>>20)
	}
	return b
}

// TestSpecialFilesAreRefused: a FIFO with no writer, and /dev/zero, named
// as a replay, a relevance file, the config or an import, are refused at
// once with an error that says what they are; before, a FIFO blocked for
// ever (SIGTERM and --timeout did nothing) and /dev/zero grew at 100 MB/s.
func TestSpecialFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	withImport := func(path string) []string {
		env := privateEnv(t)
		cfg := strings.TrimPrefix(env[0], "ATTACHE_CONFIG=")
		b, _ := json.Marshal(map[string]any{"imports": []map[string]string{{"kind": "vscode", "path": path}}})
		if err := os.WriteFile(cfg, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return env
	}
	const timeout = 2 * time.Second
	for _, special := range []struct{ path, is string }{
		{fifo, "is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "is a character device, not a regular file"},
	} {
		for _, tt := range []struct {
			name string
			env  []string
			args []string
			code int
		}{
			{"replay", privateEnv(t), []string{"lab", "run", special.path, "--server", "demo"}, exitUsage},
			{"relevance", privateEnv(t), []string{"lab", "export", "1", "--relevant", special.path}, exitUsage},
			{"config", privateEnv(t), []string{"servers", "--config", special.path}, exitUsage},
			{"import", withImport(special.path), []string{"servers"}, exitOK}, // a warning: the other servers still list
		} {
			t.Run(filepath.Base(special.path)+"/"+tt.name, func(t *testing.T) {
				r := runBounded(t, tt.env, nil, timeout+time.Second, nil, append(tt.args, "--timeout", timeout.String())...)
				if r.code != tt.code || !strings.Contains(r.stderr, special.path+" "+special.is) {
					t.Errorf("exit %d, stderr %q; want exit %d saying %q", r.code, r.stderr, tt.code, special.is)
				}
			})
		}
	}
}

// amplifyingReplay writes a replay of 50,000 turns whose first attaches
// 1,000 resources and the rest inherit them: 3.4 MB that, copied per turn,
// held 50 million URIs.
func amplifyingReplay(t *testing.T) string {
	var b bytes.Buffer
	uris := make([]string, 1000)
	for i := range uris {
		uris[i] = fmt.Sprintf("threengram://memory/x%07d", i)
	}
	first, _ := json.Marshal(map[string]any{"session": "s1", "turn": 1, "at": "2026-11-30T10:00:00Z", "user": "hi", "attached": uris})
	b.Write(append(first, '\n'))
	for i := 2; i <= 50000; i++ {
		fmt.Fprintf(&b, `{"session":"s1","turn":%d,"at":"2026-11-30T10:%02d:00Z","user":"hi"}`+"\n", i, i%60)
	}
	p := filepath.Join(t.TempDir(), "amplifying.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAmplifyingReplayIsBounded: the replay ends with its budget, and
// within a second of SIGTERM once it is replaying, its memory in
// proportion to the file.
func TestAmplifyingReplayIsBounded(t *testing.T) {
	replay := amplifyingReplay(t)
	const timeout = 3 * time.Second
	r := runBounded(t, privateEnv(t), nil, timeout+time.Second, nil,
		"lab", "run", replay, "--server", "demo", "--strategies", "host", "--timeout", timeout.String())
	if r.code != exitTransport {
		t.Errorf("exit %d, stderr %q; want %d (out of time)", r.code, r.stderr, exitTransport)
	}
	// Once the demo server runs, the replay is past its parse and reading.
	r = runBounded(t, privateEnv(t), nil, time.Second, hasChild,
		"lab", "run", replay, "--server", "demo", "--strategies", "host", "--timeout", "60s")
	if r.signal != syscall.SIGTERM {
		t.Errorf("ended with exit %d, signal %v (stderr %q); want killed by SIGTERM", r.code, r.signal, r.stderr)
	}
}

// TestBlockedStdinEnds: a replay on a stdin that never says anything (a
// pipe whose writer stays silent) ends with the budget, and at SIGTERM.
func TestBlockedStdinEnds(t *testing.T) {
	silent := func() *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		return r
	}
	const timeout = 2 * time.Second
	r := runBounded(t, privateEnv(t), silent(), timeout+time.Second, nil,
		"lab", "run", "-", "--server", "demo", "--timeout", timeout.String())
	if r.code != exitTransport || !strings.Contains(r.stderr, "the time ran out while reading the replay on stdin") {
		t.Errorf("exit %d, stderr %q; want %d, out of time reading stdin", r.code, r.stderr, exitTransport)
	}
	r = runBounded(t, privateEnv(t), silent(), time.Second, readsPipe,
		"lab", "run", "-", "--server", "demo", "--timeout", "60s")
	if r.signal != syscall.SIGTERM {
		t.Errorf("ended with exit %d, signal %v (stderr %q); want killed by SIGTERM", r.code, r.signal, r.stderr)
	}
}

// hasChild reports whether pid has started a process.
func hasChild(pid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			return true
		}
	}
	return false
}

// readsPipe reports whether one of pid's threads waits in a pipe read.
func readsPipe(pid int) bool {
	chans, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	for _, p := range chans {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "pipe") {
			return true
		}
	}
	return false
}
