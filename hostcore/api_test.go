package hostcore_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sdk is go-sdk's module: its types stay inside the session code.
const sdk = "github.com/modelcontextprotocol/go-sdk"

// The domain speaks its own types: no exported name of hostcore (a
// function, a method of an exported type, an exported field, a type, a
// variable) mentions a go-sdk type in its signature, so that the screens
// and the commands, which import no go-sdk package, never hold one, and no
// caller reaches a server past the consent gate through a raw session.
func TestAPISpeaksHostTypes(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		sdkNames := map[string]bool{} // the file's names for go-sdk packages
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != sdk && !strings.HasPrefix(p, sdk+"/") {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			sdkNames[name] = true
		}
		for _, e := range exportedTypes(f) {
			checked++
			ast.Inspect(e.expr, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && sdkNames[x.Name] {
						t.Errorf("%s: %s mentions %s.%s, a go-sdk type", fset.Position(sel.Pos()), e.name, x.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
	if checked < 200 {
		t.Fatalf("checked %d exported signatures: the test reads the wrong files", checked)
	}
}

// exported is a type expression of an exported name.
type exported struct {
	name string
	expr ast.Node
}

// exportedTypes returns the type expressions of f's exported API: the
// signatures of exported functions and of exported methods of exported
// types, the exported fields and methods of exported types, and the types
// of exported variables and constants.
func exportedTypes(f *ast.File) []exported {
	var out []exported
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			out = append(out, exported{d.Name.Name, d.Type})
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						out = append(out, typeParts(s.Name.Name, s.Type)...)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Type != nil {
							out = append(out, exported{n.Name, s.Type})
						}
					}
				}
			}
		}
	}
	return out
}

// typeParts is an exported type's API: its exported fields and methods,
// or the whole of any other type expression.
func typeParts(name string, t ast.Expr) []exported {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return []exported{{name, t}}
	}
	var out []exported
	for _, fl := range fields.List {
		if len(fl.Names) == 0 { // embedded: its promoted API is exported
			out = append(out, exported{name, fl.Type})
		}
		for _, n := range fl.Names {
			if n.IsExported() {
				out = append(out, exported{name + "." + n.Name, fl.Type})
			}
		}
	}
	return out
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}
