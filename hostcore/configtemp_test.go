package hostcore_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/attache/attache/hostcore/config"
)

// A save killed between its write and its rename left .config.json.*.tmp
// behind for good; the next load removes those of a dead process and any
// over an hour old, and leaves a live process's fresh one alone (it may be
// renaming it now).
func TestLoadRemovesStaleConfigTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead, live := gone.Process.Pid, os.Getppid()
	files := map[string]bool{ // name: removed
		fmt.Sprintf(".config.json.%d-4242.tmp", dead): true,
		fmt.Sprintf(".config.json.%d-4243.tmp", live): false,
		".config.json.1234567.tmp":                    false, // as earlier versions named it, fresh
		".config.json.7654321.tmp":                    true,  // ... and two hours old
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"servers":[]}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(dir, ".config.json.7654321.tmp"), old, old)
	if _, err := config.LoadConfig(path); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}
