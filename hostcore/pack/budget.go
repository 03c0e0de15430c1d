package pack

import (
	"errors"
	"strconv"
	"strings"
)

// MaxBudget is the largest token budget a context may be packed into:
// two million tokens, the largest context window models offer. A budget
// beyond it is a typing slip, never a context any model would take.
const MaxBudget = 2_000_000

// ErrBadBudget is the error of every budget CheckBudget and ParseBudget
// refuse (errors.Is).
var ErrBadBudget = errors.New("bad budget")

// budgetError is a refused budget, with the sentence to show.
type budgetError struct{ msg string }

func (e *budgetError) Error() string        { return e.msg }
func (e *budgetError) Is(target error) bool { return target == ErrBadBudget }

// budgetRange is the range a budget has, in words.
var budgetRange = "a whole number of tokens from 1 to " + grouped(MaxBudget)

// CheckBudget refuses a budget under 1 token or over MaxBudget, saying
// so; the error matches ErrBadBudget.
func CheckBudget(n int) error {
	switch {
	case n < 1:
		return &budgetError{"a budget is at least 1 token (" + budgetRange + ")"}
	case n > MaxBudget:
		return &budgetError{grouped(n) + " tokens is over the largest budget, " + Quantity(MaxBudget, "token")}
	}
	return nil
}

// ParseBudget reads a budget as a person types it ("8000", " 8,000 "),
// and refuses, saying why, one that is empty, not a whole number, or
// outside 1..MaxBudget; the error matches ErrBadBudget.
func ParseBudget(s string) (int, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	if t == "" {
		return 0, &budgetError{"type a budget: " + budgetRange}
	}
	for _, r := range t {
		if (r < '0' || r > '9') && r != '-' && r != '+' {
			return 0, &budgetError{"“" + typed(s) + "” is not a budget: " + budgetRange}
		}
	}
	n, err := strconv.Atoi(t)
	var ne *strconv.NumError
	switch {
	case errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange):
		return 0, &budgetError{"“" + typed(s) + "” tokens is over the largest budget, " + Quantity(MaxBudget, "token")}
	case err != nil:
		return 0, &budgetError{"“" + typed(s) + "” is not a budget: " + budgetRange}
	}
	return n, CheckBudget(n)
}

// typed is what a person typed, as a refusal quotes it: on one line, and
// cut after 24 characters.
func typed(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 24 {
		s = string(r[:24]) + "…"
	}
	return OneLine(s)
}
