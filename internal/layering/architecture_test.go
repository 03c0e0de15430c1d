package layering

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated blocks of docs/ARCHITECTURE.md")

// architecture is the newcomer's map of the packages.
const architecture = "../../docs/ARCHITECTURE.md"

// The product is what the release commands link.
var product = []string{"cmd/attache", "cmd/attachectl", "cmd/threengram"}

// The map stays true: the import arrows docs/ARCHITECTURE.md shows (the
// diagram of the product's packages, and the list of every package's
// imports within the module) are the ones go list finds. go test
// ./internal/layering -run TestArchitecture -update rewrites them.
func TestArchitecture(t *testing.T) {
	imports, err := moduleImports()
	if err != nil {
		t.Fatal(err)
	}
	linked, err := goList(append([]string{"-deps", "-f", "{{.ImportPath}}"}, qualified(product)...)...)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{"diagram": diagram(imports, local(linked)), "arrows": arrows(imports)}
	b, err := os.ReadFile(architecture)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for name, want := range blocks {
		at, got, err := block(doc, name)
		if err != nil {
			t.Fatal(err)
		}
		if got == want {
			continue
		}
		if *update {
			doc = doc[:at] + want + doc[at+len(got):]
			continue
		}
		t.Errorf("docs/ARCHITECTURE.md's %s block is not what go list finds (run with -update, and say in the text what changed):\n--- documented\n%s--- found\n%s", name, got, want)
	}
	if *update {
		if err := os.WriteFile(architecture, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// moduleImports maps each package of the module (by its path within the
// module) to the module's packages its own code imports, tests left out.
func moduleImports() (map[string][]string, error) {
	lines, err := goListLines("-f", `{{.ImportPath}}:{{join .Imports " "}}`, module+"/...")
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, l := range lines {
		pkg, imps, _ := strings.Cut(l, ":")
		out[strip(pkg)] = local(strings.Fields(imps))
	}
	return out, nil
}

// arrows lists every package with the module's packages it imports.
func arrows(imports map[string][]string) string {
	var b strings.Builder
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintln(&b, strings.TrimSpace(pkg+" -> "+strings.Join(imports[pkg], " ")))
	}
	return "```text\n" + b.String() + "```\n"
}

// diagram draws the arrows among the packages the product links.
func diagram(imports map[string][]string, linked []string) string {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart TD\n")
	for _, pkg := range linked {
		for _, imp := range imports[pkg] {
			fmt.Fprintf(&b, "  %s --> %s\n", node(pkg), node(imp))
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// node names a package in mermaid: "hostcore/chat" is hostcore_chat["hostcore/chat"].
func node(pkg string) string {
	return strings.NewReplacer("/", "_", "-", "_").Replace(pkg) + `["` + pkg + `"]`
}

// block returns the text between <!-- name:begin --> and <!-- name:end -->,
// and where it starts.
func block(doc, name string) (int, string, error) {
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i+len(begin) {
		return 0, "", fmt.Errorf("%s has no %s block (%s … %s)", filepath.Base(architecture), name, strings.TrimSpace(begin), end)
	}
	return i + len(begin), doc[i+len(begin) : j], nil
}

// module is this module's path.
const module = "github.com/attache/attache"

func qualified(pkgs []string) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = module + "/" + p
	}
	return out
}

// local keeps the module's packages of paths, by their path within it.
func local(paths []string) []string {
	var out []string
	for _, p := range paths {
		if strings.HasPrefix(p, module+"/") {
			out = append(out, strip(p))
		}
	}
	slices.Sort(out)
	return out
}

func strip(p string) string { return strings.TrimPrefix(p, module+"/") }

// goListLines runs go list with args and returns its lines.
func goListLines(args ...string) ([]string, error) {
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
}
