package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/internal/layering"
)

// The screens talk to hostcore only: no SQL, no store, no server, no
// protocol details.
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/ui",
		"database/sql",
		"github.com/mattn/go-sqlite3",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/internal/threengram",
		"github.com/attache/attache/internal/hostcache",
		"github.com/attache/attache/cmd",
	)
	// hostcore itself speaks the protocol through go-sdk, so go-sdk is among
	// ui's dependencies; ui must not import it directly.
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "github.com/attache/attache/ui").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "github.com/modelcontextprotocol/go-sdk") {
			t.Errorf("ui imports %s: the protocol is hostcore's business", imp)
		}
	}
}

// The screens never read the command line: cmd/attache does.
func TestNoArgs(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && sel.Sel.Name == "Args" {
					t.Errorf("%s reads os.Args: the command line is cmd/attache's", name)
				}
			}
			return true
		})
		for _, imp := range f.Imports {
			if imp.Path.Value == `"flag"` {
				t.Errorf("%s imports flag: the command line is cmd/attache's", name)
			}
		}
	}
}
