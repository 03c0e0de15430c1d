package hostcore_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The consent gate stands apart from the model loop and the lab runner,
// which are to move into packages of their own (hostcore/chat,
// hostcore/labrun): no consent file names a function, type, variable or
// constant those files declare. (Methods are left out: a method is reached
// through a value, whose type would be named first.)
func TestConsentStandsApart(t *testing.T) {
	moving := func(name string) bool {
		return strings.HasPrefix(name, "chat") || strings.HasPrefix(name, "lab") ||
			slices.Contains([]string{"turn.go", "toolset.go", "sendcontext.go"}, name)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	declared := map[string]string{} // name → file
	var gate []*ast.File
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case moving(path):
			for name := range topLevel(f) {
				declared[name] = path
			}
		case strings.HasPrefix(path, "consent"):
			gate = append(gate, f)
		}
	}
	if len(gate) < 3 || len(declared) < 20 {
		t.Fatalf("found %d consent files and %d names to keep out: the test reads the wrong files", len(gate), len(declared))
	}
	for _, f := range gate {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				ast.Inspect(sel.X, func(n ast.Node) bool { return check(t, fset, n, declared) })
				return false
			}
			return check(t, fset, n, declared)
		})
	}
}

// check reports an identifier that names a declaration of declared.
func check(t *testing.T, fset *token.FileSet, n ast.Node, declared map[string]string) bool {
	if id, ok := n.(*ast.Ident); ok {
		if file, found := declared[id.Name]; found && id.Obj == nil {
			t.Errorf("%s uses %s, declared in %s", fset.Position(id.Pos()), id.Name, file)
		}
	}
	return true
}

// topLevel names f's functions (not methods), types, variables and
// constants.
func topLevel(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

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
