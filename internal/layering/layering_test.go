package layering

import (
	"slices"
	"testing"
)

// TestViolationsBite proves the check finds a real dependency: this package
// uses os/exec, so forbidding "os" must report os and os/exec, and forbidding
// a lookalike prefix must report nothing.
func TestViolationsBite(t *testing.T) {
	bad, err := Violations("github.com/attache/attache/internal/layering", "os")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(bad, "os") || !slices.Contains(bad, "os/exec") {
		t.Errorf("Violations = %v; want os and os/exec", bad)
	}
	if bad, _ := Violations("github.com/attache/attache/internal/layering", "o"); len(bad) != 0 {
		t.Errorf("prefix o matched %v; only whole path elements should match", bad)
	}
}
