package lab

import "fmt"

// Thresholds are what a team writes down before a change ships. A zero
// MinReach checks nothing; a negative MaxDuplicates checks nothing.
type Thresholds struct {
	MinReach      float64
	MaxDuplicates float64
}

// Shortfall is one threshold a strategy failed.
type Shortfall struct {
	Strategy  Strategy `json:"strategy"`
	Threshold string   `json:"threshold"`
	Want      float64  `json:"want"`
	Got       float64  `json:"got"`
}

func (s Shortfall) String() string {
	switch s.Threshold {
	case "min-reach":
		return fmt.Sprintf("%s: reach %.4f is below --min-reach %.4f", s.Strategy, s.Got, s.Want)
	default:
		return fmt.Sprintf("%s: duplicate rate %.4f is above --max-duplicates %.4f", s.Strategy, s.Got, s.Want)
	}
}

// Check returns every threshold the results fall short of, in order.
func (th Thresholds) Check(results []Result) []Shortfall {
	var out []Shortfall
	for _, r := range results {
		if th.MinReach > 0 && r.Reach < th.MinReach {
			out = append(out, Shortfall{r.Strategy, "min-reach", th.MinReach, r.Reach})
		}
		if th.MaxDuplicates >= 0 && r.DuplicateRate > th.MaxDuplicates {
			out = append(out, Shortfall{r.Strategy, "max-duplicates", th.MaxDuplicates, r.DuplicateRate})
		}
	}
	return out
}
