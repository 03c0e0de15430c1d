// Package testbin builds this module's commands for tests that run them as
// real processes (a server over stdio, the CLI as a person runs it). Each
// command is built once per test process into a temporary directory that
// Main removes at the end.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Module is this module's path.
const Module = "github.com/attache/attache"

var (
	mu    sync.Mutex
	dir   string
	built = map[string]string{}
)

// Main runs the tests and then removes the binaries; call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	mu.Lock()
	if dir != "" {
		os.RemoveAll(dir)
	}
	mu.Unlock()
	os.Exit(code)
}

// Path builds the command at pkg (relative to the module, such as
// "cmd/threengram") once, and returns the binary's path.
func Path(pkg string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[pkg]; ok {
		return p, nil
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "attache-testbin")
		if err != nil {
			return "", err
		}
		dir = d
	}
	p := filepath.Join(dir, filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", p, Module+"/"+pkg).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	built[pkg] = p
	return p, nil
}

// Build is Path for a test: it fails the test when the build fails.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	p, err := Path(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
