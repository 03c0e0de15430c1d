package ctl

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/internal/fulldisk"
)

// TestFullDiskDegrades: on a data dir whose disk is full, a cached read
// prints its body and the read-only commands work; a write says the disk
// is full, with its own exit code (before: every command failed with
// "disk I/O error … (usage)", exit 2).
func TestFullDiskDegrades(t *testing.T) {
	dir := fulldisk.Mount(t, 4<<20)
	env := []string{"ATTACHE_CONFIG=" + filepath.Join(t.TempDir(), "config.json"), "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data")}
	const uri = "threengram://memory/m00qgwdvbb"
	body := must(t, env, "read", "demo", uri).stdout
	must(t, env, "context", "new", "Launch prep")
	fulldisk.Fill(t, dir)

	r := ctl(t, env, "read", "demo", uri, "-v")
	if r.code != 0 || r.stdout != body || !strings.Contains(r.stderr, "cache hit") {
		t.Errorf("cached read on a full disk: exit %d, stdout %q, stderr %q; want the body, a hit", r.code, r.stdout, r.stderr)
	}
	for _, read := range []struct {
		args []string
		says string
	}{
		{[]string{"context", "list"}, "Launch prep"},
		{[]string{"servers"}, "demo"},
		{[]string{"cache", "stats"}, "read-only: the disk is full"},
	} {
		if r := ctl(t, env, read.args...); r.code != 0 || !strings.Contains(r.stdout, read.says) {
			t.Errorf("%s on a full disk: exit %d, stdout %q, stderr %q", strings.Join(read.args, " "), r.code, r.stdout, r.stderr)
		}
	}
	for _, write := range [][]string{{"context", "new", "More"}, {"cache", "purge"}} {
		r := ctl(t, env, write...)
		if r.code != exitDiskFull || !strings.Contains(r.stderr, "the disk is full (disk full)") || strings.Contains(r.stderr, "usage") {
			t.Errorf("%s on a full disk: exit %d, stderr %q; want %d, the disk is full", strings.Join(write, " "), r.code, r.stderr, exitDiskFull)
		}
	}
}
