// Package layering enforces who may import whom (see HOUSE-STYLE.md): each
// core package has a deps_test.go that calls Check, so a forbidden import,
// direct or transitive, fails the tests rather than waiting for a review.
//
// A rule that names nothing would pass for ever: after a rename, a rule
// forbidding the old path no longer forbids anything. So Check also fails
// for a forbidden entry that matches no package the module can build, as
// tailscale's deptest does.
package layering

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A forbidden entry is an import path. It matches that path and every
// package below it ("fyne.io" forbids fyne.io/fyne/v2/widget). An entry
// ending in "$" matches that exact path only ("database/sql$" forbids
// database/sql but not database/sql/driver, which libraries import for an
// interface without doing any SQL). An entry ending in "/" matches only the
// packages below it ("github.com/attache/attache/" forbids every package
// of the module but not its root).
func matches(dep, entry string) bool {
	if exact, ok := strings.CutSuffix(entry, "$"); ok {
		return dep == exact
	}
	if under, ok := strings.CutSuffix(entry, "/"); ok {
		return strings.HasPrefix(dep, under+"/")
	}
	return dep == entry || strings.HasPrefix(dep, entry+"/")
}

// Violations lists the packages that pkg (an import path) depends on,
// directly or through another package, that a forbidden entry matches;
// pkg itself is never one.
func Violations(pkg string, forbidden ...string) ([]string, error) {
	deps, err := goList("-deps", pkg)
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, dep := range deps {
		if dep == pkg {
			continue // a package may be itself
		}
		for _, f := range forbidden {
			if matches(dep, f) {
				bad = append(bad, dep)
			}
		}
	}
	return bad, nil
}

// Unknown lists the forbidden entries that match no package of the
// standard library, of the module, or that any package of the module
// depends on, its tests included: rules that forbid nothing.
func Unknown(forbidden ...string) ([]string, error) {
	known, err := universe()
	if err != nil {
		return nil, err
	}
	var none []string
	for _, f := range forbidden {
		found := false
		for _, p := range known {
			if matches(p, f) {
				found = true
				break
			}
		}
		if !found {
			none = append(none, f)
		}
	}
	return none, nil
}

// Check fails t for every forbidden dependency of pkg, for pkg itself if
// it does not exist, and for every forbidden entry that names nothing.
func Check(t *testing.T, pkg string, forbidden ...string) {
	t.Helper()
	bad, err := Violations(pkg, forbidden...)
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range bad {
		t.Errorf("%s depends on %s, which the house style forbids", pkg, dep)
	}
	none, err := Unknown(forbidden...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range none {
		t.Errorf("the rule for %s forbids %q, which names no package: a renamed path switches a rule off; name the new one", pkg, f)
	}
}

// Own lists what pkg's own code depends on: the packages it imports and
// theirs, directly or not, except that an import an entry of apart
// matches is neither listed nor followed. It serves a rule that a
// dependency breaks for reasons of its own: pack's tokenizer imports
// net/http, for a download pack never asks for, so "pack reaches no
// network" is a rule on pack's own code with the tokenizer set apart.
// standard says which of the packages the standard library holds.
func Own(pkg string, apart ...string) (deps []string, standard map[string]bool, err error) {
	// The package's own path first, so that a package without imports
	// lists something.
	imports, err := goList("-f", "{{.ImportPath}} {{join .Imports \" \"}}", pkg)
	if err != nil {
		return nil, nil, err
	}
	var follow []string
	for _, imp := range imports[1:] {
		if !slices.ContainsFunc(apart, func(a string) bool { return matches(imp, a) }) {
			follow = append(follow, imp)
		}
	}
	if len(follow) == 0 {
		return nil, map[string]bool{}, nil
	}
	lines, err := goList(append([]string{"-deps", "-f", "{{.ImportPath}}:{{.Standard}}"}, follow...)...)
	if err != nil {
		return nil, nil, err
	}
	standard = map[string]bool{}
	for _, l := range lines {
		path, std, _ := strings.Cut(l, ":")
		deps, standard[path] = append(deps, path), std == "true"
	}
	return deps, standard, nil
}

// OwnRule is a rule on what a package's own code depends on (see Own).
type OwnRule struct {
	// Apart are the entries whose imports are set apart: not followed.
	Apart []string
	// StandardOnly asks that every package depended on be in the
	// standard library.
	StandardOnly bool
	// Forbidden are entries, as Check's, that no package depended on
	// may match.
	Forbidden []string
}

// CheckOwn fails t for every package pkg's own code depends on (see Own,
// with rule.Apart set apart) that breaks rule, and for every entry of the
// rule that names nothing.
func CheckOwn(t *testing.T, pkg string, rule OwnRule) {
	t.Helper()
	deps, standard, err := Own(pkg, rule.Apart...)
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range deps {
		for _, f := range rule.Forbidden {
			if matches(dep, f) {
				t.Errorf("%s's own code depends on %s, which the house style forbids", pkg, dep)
			}
		}
		if rule.StandardOnly && !standard[dep] {
			t.Errorf("%s's own code depends on %s, which is not in the standard library", pkg, dep)
		}
	}
	none, err := Unknown(append(slices.Clone(rule.Apart), rule.Forbidden...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range none {
		t.Errorf("the rule for %s names %q, which names no package: a renamed path switches a rule off; name the new one", pkg, f)
	}
}

var known struct {
	once sync.Once
	pkgs []string
	err  error
}

// universe lists every package a rule could meaningfully name: the
// standard library, and every package of the module with all it and its
// tests depend on. It is listed once per test binary.
func universe() ([]string, error) {
	known.once.Do(func() {
		std, err := goList("std")
		if err != nil {
			known.err = err
			return
		}
		all, err := goList("-deps", "-test", "github.com/attache/attache/...")
		if err != nil {
			known.err = err
			return
		}
		known.pkgs = append(std, all...)
	})
	return known.pkgs, known.err
}

// goList runs go list with args and returns the import paths it prints.
func goList(args ...string) ([]string, error) {
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		detail := ""
		if ee, ok := err.(*exec.ExitError); ok {
			detail = string(ee.Stderr)
		}
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, detail)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("go list %s listed nothing", strings.Join(args, " "))
	}
	return pkgs, nil
}
