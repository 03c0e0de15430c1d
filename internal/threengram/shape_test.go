package threengram

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestShapesAreTheRegexps checks each shape against the regexp it replaces,
// on the edge cases and on random strings over an alphabet that holds every
// class of byte the shapes tell apart.
func TestShapesAreTheRegexps(t *testing.T) {
	shapes := []struct {
		name  string
		check func(string) bool
		re    *regexp.Regexp
	}{
		{"validID", validID, regexp.MustCompile(`^[0-9a-z]{1,64}$`)},
		{"validChallenge", validChallenge, regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)},
		{"validVerifier", validVerifier, regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)},
	}
	const alphabet = "az09AZ-_.~/+= \x00\n\xffé"
	edges := []string{"", "a", "A", "m01", "M01", "m-1", "é", "a\n", "\na",
		strings.Repeat("a", 42), strings.Repeat("a", 43), strings.Repeat("a", 44),
		strings.Repeat("z", 64), strings.Repeat("z", 65), strings.Repeat("~", 128), strings.Repeat("~", 129),
		strings.Repeat("_", 43), strings.Repeat("A", 42) + "=", strings.Repeat("9", 42) + "é"}
	r := rand.New(rand.NewPCG(15, 6))
	for range 20000 {
		n := r.IntN(140)
		b := make([]byte, n)
		for i := range b {
			// Mostly letters and digits, so that long valid strings come up.
			if r.IntN(50) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = "abcxyz0189ABCXYZ"[r.IntN(16)]
			}
		}
		edges = append(edges, string(b))
	}
	for _, sh := range shapes {
		matched := 0
		for _, s := range edges {
			got, want := sh.check(s), sh.re.MatchString(s)
			if got != want {
				t.Errorf("%s(%q) = %v; the regexp says %v", sh.name, s, got, want)
			}
			if want {
				matched++
			}
		}
		if matched < 100 {
			t.Errorf("%s: only %d strings matched; the test needs more valid cases", sh.name, matched)
		}
	}
}
