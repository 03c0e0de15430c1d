package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The app cannot hang at start on a file its config names: a FIFO as the
// config is an error that says so, and a FIFO or a device as an import is
// an import error beside the servers that load. Before, either blocked the
// start for ever, before the window.
func TestStartRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"imports": [{"kind": "vscode", "path": "`+fifo+`"}, {"kind": "claude-desktop", "path": "/dev/zero"}],
		"servers": [{"name": "kept", "command": "true"}]}`), 0o600)

	type loaded struct {
		names []string
		err   error
	}
	load := func(path string) loaded {
		done := make(chan loaded, 1)
		go func() {
			c, err := loadConfig(path)
			var l loaded
			if l.err = err; err == nil {
				for _, e := range c.ImportErrors() {
					l.names = append(l.names, e.Error())
				}
				if _, err := c.Find("kept"); err != nil {
					l.err = err
				}
			}
			done <- l
		}()
		select {
		case l := <-done:
			return l
		case <-time.After(configBudget + 5*time.Second):
			t.Fatalf("loading %s still runs after %s", path, configBudget+5*time.Second)
			return loaded{}
		}
	}
	l := load(cfg)
	if l.err != nil || len(l.names) != 2 || !strings.Contains(l.names[0], fifo+" is a named pipe (FIFO)") ||
		!strings.Contains(l.names[1], "/dev/zero is a character device") {
		t.Errorf("config importing a FIFO and /dev/zero: import errors %q, err %v", l.names, l.err)
	}
	if l := load(fifo); l.err == nil || !strings.Contains(l.err.Error(), fifo+" is a named pipe (FIFO), not a regular file") {
		t.Errorf("a FIFO as the config: %v", l.err)
	}
}
