// Package layering enforces who may import whom (see HOUSE-STYLE.md): each
// core package has a deps_test.go that calls Check, so a forbidden import,
// direct or transitive, fails the tests rather than waiting for a review.
package layering

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// Violations lists the packages that pkg (an import path) depends on,
// directly or through another package, whose import path equals one of the
// forbidden prefixes or starts with it followed by a slash. A forbidden
// entry ending in "$" matches that exact path only ("database/sql$" forbids
// database/sql but not database/sql/driver, which libraries import for an
// interface without doing any SQL).
func Violations(pkg string, forbidden ...string) ([]string, error) {
	out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		return nil, fmt.Errorf("go list -deps %s listed nothing", pkg)
	}
	var bad []string
	for _, dep := range deps {
		for _, f := range forbidden {
			exact, isExact := strings.CutSuffix(f, "$")
			if dep == exact || (!isExact && strings.HasPrefix(dep, f+"/")) {
				bad = append(bad, dep)
			}
		}
	}
	return bad, nil
}

// Check fails t for every forbidden dependency of pkg.
func Check(t *testing.T, pkg string, forbidden ...string) {
	t.Helper()
	bad, err := Violations(pkg, forbidden...)
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range bad {
		t.Errorf("%s depends on %s, which the house style forbids", pkg, dep)
	}
}
