package main

import (
	"fmt"
	"testing"
)

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 3, 4, 10}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 2}, {0.5, 3}, {0.75, 4}, {1, 10}, {0.125, 1.5}} {
		if got := quantile(s, c.q); got != c.want {
			t.Errorf("quantile(%v, %v) = %v; want %v", s, c.q, got, c.want)
		}
	}
	if got := median([]float64{1, 2, 3, 100}); got != 2.5 {
		t.Errorf("median of an even count = %v; want 2.5", got)
	}
}

func TestCommandFlag(t *testing.T) {
	var c commandFlags
	if err := c.Set(`ours=A=1 B_2=x bin/x --flag 'two words'`); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%s %q %q", c[0].name, c[0].env, c[0].argv)
	if want := `ours ["A=1" "B_2=x"] ["bin/x" "--flag" "two words"]`; got != want {
		t.Errorf("parsed %s; want %s", got, want)
	}
	for _, bad := range []string{"noname", "=cmd", "x=A=1", "x='unclosed"} {
		if err := c.Set(bad); err == nil {
			t.Errorf("Set(%q) took it; want an error", bad)
		}
	}
}
