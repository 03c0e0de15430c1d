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

// TestUnknownRules proves a rule naming nothing is caught: a renamed
// package, a typo'd module and a dangling prefix all name no package,
// while real paths of each form do.
func TestUnknownRules(t *testing.T) {
	none, err := Unknown("github.com/attache/attache/state", "fyne.io/fyen", "github.com/attache/attache/nothing/",
		"fyne.io", "database/sql$", "github.com/attache/attache/", "github.com/attache/attache/internal/state")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"github.com/attache/attache/state", "fyne.io/fyen", "github.com/attache/attache/nothing/"}
	if !slices.Equal(none, want) {
		t.Errorf("Unknown = %v; want %v", none, want)
	}
}

// TestTrailingSlashMatchesBelow: "github.com/attache/attache/" forbids
// every package of the module (it once matched nothing at all).
func TestTrailingSlashMatchesBelow(t *testing.T) {
	if !matches("github.com/attache/attache/internal/layering", "github.com/attache/attache/") {
		t.Error("the module's packages do not match the module's prefix with a slash")
	}
	if matches("github.com/attache/attache", "github.com/attache/attache/") {
		t.Error("the module's root matches the prefix below it")
	}
	bad, err := Violations("github.com/attache/attache/internal/proctime", "github.com/attache/attache/")
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 0 {
		t.Errorf("Violations = %v; a package is never its own violation", bad)
	}
}

// TestOwnSetsApart: what pack's own code depends on takes in its
// tokenizer's regexp2, unless the tokenizer is set apart; set apart, it
// is neither listed nor followed, and what is left is the standard
// library's.
func TestOwnSetsApart(t *testing.T) {
	const pack = "github.com/attache/attache/hostcore/pack"
	all, _, err := Own(pack)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(all, "github.com/dlclark/regexp2") || !slices.Contains(all, pack+"/cl100k") {
		t.Errorf("Own(pack) = %v; want the tokenizer and its regexp2", all)
	}
	own, standard, err := Own(pack, pack+"/cl100k")
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range own {
		if matches(dep, "github.com/dlclark") || matches(dep, pack+"/cl100k") {
			t.Errorf("Own(pack, the tokenizer apart) lists %s", dep)
		}
		if !standard[dep] {
			t.Errorf("Own(pack, the tokenizer apart) lists %s, not from the standard library", dep)
		}
	}
	if !slices.Contains(own, "strings") || !standard["strings"] {
		t.Errorf("Own(pack, the tokenizer apart) = %v; want strings, from the standard library", own)
	}
}
