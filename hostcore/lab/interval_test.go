package lab

import (
	"math"
	"testing"
)

// TestWilson checks the interval against Newcombe (1998), "Two-sided
// confidence intervals for the single proportion", Statistics in
// Medicine 17:857–872, Table I, method 3 (score interval without
// continuity correction), given there to four decimals, and against the
// edges the method defines.
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
		// Computed independently (Python, the closed form) and symmetric
		// to 0/20 above: n successes mirror 0.
		{20, 20, 0.8389, 1.0000},
		{5, 10, 0.2366, 0.7634},
	}
	for _, tt := range tests {
		got := Wilson(tt.k, tt.n)
		if math.Abs(got.Low-tt.low) > 0.00005 || math.Abs(got.High-tt.high) > 0.00005 {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tt.k, tt.n, got.Low, got.High, tt.low, tt.high)
		}
	}
}

func TestWilsonEdges(t *testing.T) {
	if got := Wilson(0, 0); got != (Interval{0, 1}) {
		t.Errorf("no trials: %+v, want the whole of 0–1", got)
	}
	if got, want := Wilson(12, 10), Wilson(10, 10); got != want {
		t.Errorf("k over n: %+v, want it clamped to %+v", got, want)
	}
	if got := Wilson(10, 10); got.High != 1 || got.Low >= 1 {
		t.Errorf("all successes: %+v, want a low bound under 1 and a high of exactly 1", got)
	}
	if got := Wilson(821, 1000).Percent(); got != "79.6–84.4" {
		t.Errorf("Percent: %q", got)
	}
}
