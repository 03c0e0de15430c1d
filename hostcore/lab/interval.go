package lab

import (
	"fmt"
	"math"
)

// Interval is a 95% confidence interval for a rate, as fractions between
// 0 and 1. A rate with no trials (a denominator of 0) has the empty
// interval, Low 0 and High 1: nothing is known of it.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson returns the Wilson score interval at 95% for k successes out of n
// trials. Unlike the normal approximation (p ± z·√(p(1−p)/n)) it stays
// within [0, 1] and does not collapse to a point at 0 or n successes, so
// a strategy that reached 10 of 10 turns reads as "100% (72.2–100)", not
// as a certainty. k is clamped to [0, n]; n ≤ 0 gives the empty interval.
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{Low: 0, High: 1}
	}
	k = min(max(k, 0), n)
	nf, p := float64(n), float64(k)/float64(n)
	z2 := z95 * z95
	centre := p + z2/(2*nf)
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	d := 1 + z2/nf
	iv := Interval{Low: (centre - half) / d, High: (centre + half) / d}
	if k == 0 {
		iv.Low = 0 // exactly, not −1e-17
	}
	if k == n {
		iv.High = 1
	}
	return iv
}

// Percent renders the interval as percentages with one decimal,
// "78.4–85.3", the form the tables show after a rate.
func (iv Interval) Percent() string {
	return fmt.Sprintf("%.1f–%.1f", 100*iv.Low, 100*iv.High)
}
