package cache

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countOnDisk counts the copies of marker in the cache file at path and in
// its -wal and -shm companions, whichever exist.
func countOnDisk(t *testing.T, path, marker string) int {
	t.Helper()
	n := 0
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte(marker))
	}
	return n
}

// TestPurgeLeavesNoBytes: once Purge returns, the purged bodies are in
// neither the file nor its write-ahead log, while the app's Store and
// attachectl's share the file; the entries kept are still there. A value
// small enough for its row's page and one spilling onto overflow pages
// are both checked, since SQLite frees the two differently.
func TestPurgeLeavesNoBytes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cache.db")
	app, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ctl, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	const small, large, kept = "purged-3c1f9e-small", "purged-3c1f9e-large", "kept-3c1f9e"
	purged := []string{small, large}
	mustPut(t, app, privateAs("mem://1", "fp-a", "alice", small))
	mustPut(t, app, privateAs("mem://2", "fp-a", "alice", strings.Repeat("x", 16<<10)+large))
	mustPut(t, app, privateAs("mem://1", "fp-b", "alice@example.com", kept))
	mustPut(t, app, public("mem://3", kept))
	value(t, app, readKey("mem://1"), "fp-a") // into the app's memory tier
	for _, m := range purged {
		if countOnDisk(t, path, m) == 0 {
			t.Fatalf("%s is not on disk before the purge; the scan cannot see what it looks for", m)
		}
	}

	if n, err := ctl.Purge(ctx, Filter{AccountName: "alice"}); n != 2 || err != nil {
		t.Fatalf("Purge(name alice) = %d, %v; want 2", n, err)
	}
	check := func(when string) {
		t.Helper()
		for _, m := range purged {
			if n := countOnDisk(t, path, m); n != 0 {
				t.Errorf("%s: %d copies of %s on disk; want none", when, n, m)
			}
		}
		if n := countOnDisk(t, path, kept); n < 2 {
			t.Errorf("%s: %d copies of the kept bodies on disk; want 2", when, n)
		}
	}
	check("after the purge, both stores open")
	if err := ctl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := app.Close(); err != nil {
		t.Fatal(err)
	}
	check("after both stores closed")
}
