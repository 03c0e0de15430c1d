package ctl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandOver runs attachectl alone, with no attachectl-full beside it or
// on PATH: the commands that need a model or a chart say so and exit 2,
// before doing anything; every other command, and those same commands
// without the flags that need one, run as before. (With attachectl-full
// beside it, send_test and lab_test run those commands through it.)
func TestHandOver(t *testing.T) {
	lone := filepath.Join(t.TempDir(), "attachectl")
	b, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(privateEnv(t), "PATH="+t.TempDir())
	run := func(args ...string) result {
		t.Helper()
		return runBin(t, lone, env, args...)
	}

	conv := strings.TrimSpace(run("context", "new", "hand-over").stdout)
	if conv == "" {
		t.Fatal("context new printed no id")
	}
	for _, args := range [][]string{
		{"send", conv, "hello"},
		{"turns", conv, "--replay", "1"},
		{"turns", conv, "--replay=1"},
		{"lab", "run", "--server", "demo", "--out", t.TempDir()},
		{"lab", "check", "--server", "demo", "--provider", "x", "--min-reach", "0.5"},
	} {
		r := run(args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "needs attachectl-full") {
			t.Errorf("attachectl %s alone: exit %d, stderr %q; want 2 naming attachectl-full", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"turns", conv},
		{"servers"},
		{"providers"},
		{"lab", "run", "--server", "demo", "--strategies", "host", "--", "--out"},
	} {
		if r := run(args...); strings.Contains(r.stderr, "attachectl-full") {
			t.Errorf("attachectl %s alone reached for attachectl-full: %q", strings.Join(args, " "), r.stderr)
		}
	}
}
