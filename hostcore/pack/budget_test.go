package pack

import (
	"errors"
	"testing"
)

// A budget as typed: whole tokens from 1 to MaxBudget, with commas and
// spaces allowed; anything else is refused with a sentence that says the
// range, or the largest budget.
func TestParseBudget(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
		msg      string
	}{
		{"plain", "8000", 8000, ""},
		{"grouped and spaced", " 8,000 ", 8000, ""},
		{"the largest", "2000000", MaxBudget, ""},
		{"one", "1", 1, ""},
		{"empty", "", 0, "type a budget: a whole number of tokens from 1 to 2,000,000"},
		{"blank", "   ", 0, "type a budget: a whole number of tokens from 1 to 2,000,000"},
		{"words", "lots", 0, "“lots” is not a budget: a whole number of tokens from 1 to 2,000,000"},
		{"a fraction", "12.5", 0, "“12.5” is not a budget: a whole number of tokens from 1 to 2,000,000"},
		{"zero", "0", 0, "a budget is at least 1 token (a whole number of tokens from 1 to 2,000,000)"},
		{"negative", "-5", 0, "a budget is at least 1 token (a whole number of tokens from 1 to 2,000,000)"},
		{"over", "2000001", 0, "2,000,001 tokens is over the largest budget, 2,000,000 tokens"},
		{"18 digits", "123456789012345678", 0, "123,456,789,012,345,678 tokens is over the largest budget, 2,000,000 tokens"},
		{"20 digits", "12345678901234567890", 0, "“12345678901234567890” tokens is over the largest budget, 2,000,000 tokens"},
		{"a long paste", "abcdefghijklmnopqrstuvwxyz", 0, "“abcdefghijklmnopqrstuvwx…” is not a budget: a whole number of tokens from 1 to 2,000,000"},
		{"a control character", "8\n0", 0, "“\"8\\n0\"” is not a budget: a whole number of tokens from 1 to 2,000,000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseBudget(tt.in)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseBudget(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
				}
				return
			}
			if err == nil || err.Error() != tt.msg || !errors.Is(err, ErrBadBudget) {
				t.Fatalf("ParseBudget(%q) = %d, %v; want the error %q", tt.in, got, err, tt.msg)
			}
		})
	}
}
