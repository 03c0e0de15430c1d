package hostcore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/attache/attache/hostcore/config"
)

// TestConfigConcurrentSaves: configs of different sizes saved to one path
// at once, as the app and an attachectl run would, never leave a file that
// is torn or mixed: a reader polling the file throughout, and the file at
// the end, see exactly one saver's bytes. No temporary file is left
// behind, and the file, which held 0644 before, ends 0600 (it may hold
// credentials).
func TestConfigConcurrentSaves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	writeFile(t, path, `{"servers":[]}`)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	const savers, rounds = 8, 25
	configs := make([]*config.Config, savers)
	saved := map[string]bool{} // every file a saver writes
	for i := range configs {
		c, err := config.LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		for j := range i + 1 { // saver i writes i+1 servers of ~(i+1) KB each
			sc := config.ServerConfig{Name: fmt.Sprintf("s%d-%d", i, j), Command: "mem",
				Args: []string{strings.Repeat(string(rune('a'+i)), 1024*(i+1))}}
			if err := c.Upsert(sc); err != nil {
				t.Fatal(err)
			}
		}
		configs[i] = c
	}
	for _, c := range configs { // one at a time, to learn each saver's bytes
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		saved[string(mustReadFile(t, path))] = true
	}
	if len(saved) != savers {
		t.Fatalf("%d distinct files from %d savers; want one each", len(saved), savers)
	}

	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("reading during saves: %v", err) // the rename replaces; the file never vanishes
				return
			}
			if !saved[string(b)] {
				t.Errorf("read a file no saver wrote (%d bytes): %.80q…", len(b), b)
				return
			}
			reads.Add(1)
		}
	})
	var savesWG sync.WaitGroup
	for _, c := range configs {
		savesWG.Go(func() {
			for range rounds {
				if err := c.Save(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	savesWG.Wait()
	done.Store(true)
	wg.Wait()
	t.Logf("%d reads during %d saves", reads.Load(), savers*rounds)

	if !saved[string(mustReadFile(t, path))] {
		t.Error("the file after the saves is no saver's")
	}
	if _, err := config.LoadConfig(path); err != nil {
		t.Errorf("loading the file after the saves: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != "config.json" {
		t.Errorf("the directory holds %v; want config.json alone", names)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("config mode %v; want 0600", fi.Mode().Perm())
	}
}

// TestConfigFailedSaveLeavesNoTemporaryFile: a Save whose rename fails
// (the path is a directory that is not empty) reports it, naming the
// path, and removes its temporary file.
func TestConfigFailedSaveLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	c, err := config.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "in the way"), 0o700); err != nil {
		t.Fatal(err)
	}
	err = c.Save()
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Save over a directory: %v; want an error naming %s", err, path)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != "config.json" {
		t.Errorf("the directory holds %v; want the directory config.json alone", names)
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
