package hostcore_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The one call path: outside hostcore/tools.go, no program code of the
// module builds a tools/call of its own (go-sdk's CallToolParams), which
// would reach a server without the gate's decision. Tests may, to set a
// server up.
func TestOneToolCallPath(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		if rel, _ := filepath.Rel(root, path); rel != filepath.Join("hostcore", "tools.go") && bytes.Contains(b, []byte("CallToolParams")) {
			t.Errorf("%s calls a tool without the consent gate (CallToolParams)", rel)
		}
		return nil
	})
	if err != nil || checked < 100 {
		t.Fatalf("walking the module: %v (%d files)", err, checked)
	}
}
