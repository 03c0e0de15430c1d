package lab

import (
	"slices"
	"time"
)

// Freshness compares two ways of keeping attached data fresh, from the
// turns' timestamps: polling every attached resource at an interval, and
// reading it again on every turn. A session lasts from its first turn to
// its last; a resource attached at a turn is held until the session's next
// turn, and polled meanwhile.
type Freshness struct {
	PollIntervalSeconds float64 `json:"pollIntervalSeconds"`
	Sessions            int     `json:"sessions"`
	SessionHours        float64 `json:"sessionHours"`
	TurnsPerSessionHour float64 `json:"turnsPerSessionHour"`
	// PollReads and TurnReads are the reads each way costs over the
	// replay; the per-hour figures divide them by SessionHours.
	PollReads                  float64 `json:"pollReads"`
	TurnReads                  int     `json:"turnReads"`
	PollReadsPerSessionHour    float64 `json:"pollReadsPerSessionHour"`
	PerTurnReadsPerSessionHour float64 `json:"perTurnReadsPerSessionHour"`
}

// ComputeFreshness works out Freshness for turns (as Parse returns them,
// attached resolved) polled every interval. With no time between turns,
// the per-hour figures are 0.
func ComputeFreshness(turns []Turn, interval time.Duration) Freshness {
	f := Freshness{PollIntervalSeconds: interval.Seconds()}
	bySession := map[string][]Turn{}
	var order []string
	for _, t := range turns {
		if _, ok := bySession[t.Session]; !ok {
			order = append(order, t.Session)
		}
		bySession[t.Session] = append(bySession[t.Session], t)
	}
	f.Sessions = len(order)
	var span, held time.Duration // held: resource-time, summed
	var sets setSizes
	for _, s := range order {
		ts := bySession[s]
		slices.SortStableFunc(ts, func(a, b Turn) int { return a.At.Compare(b.At) })
		span += ts[len(ts)-1].At.Sub(ts[0].At)
		for i, t := range ts {
			n := sets.distinct(t.Attached)
			f.TurnReads += n
			if i+1 < len(ts) {
				held += time.Duration(n) * ts[i+1].At.Sub(t.At)
			}
		}
	}
	if interval > 0 {
		f.PollReads = float64(held) / float64(interval)
	}
	f.SessionHours = span.Hours()
	if f.SessionHours > 0 {
		f.TurnsPerSessionHour = float64(len(turns)) / f.SessionHours
		f.PollReadsPerSessionHour = f.PollReads / f.SessionHours
		f.PerTurnReadsPerSessionHour = float64(f.TurnReads) / f.SessionHours
	}
	return f
}

// setSizes counts the distinct resources of attached sets, once per set:
// Parse shares one slice among the turns that inherit it, so a replay
// whose 50,000 turns inherit 1,000 resources counts them once, not 50,000
// times.
type setSizes map[setID]int

// setID names a slice by its first element and length.
type setID struct {
	first *string
	n     int
}

func (m *setSizes) distinct(s []string) int {
	if len(s) == 0 {
		return 0
	}
	id := setID{&s[0], len(s)}
	if n, ok := (*m)[id]; ok {
		return n
	}
	if *m == nil {
		*m = setSizes{}
	}
	n := len(uniq(s))
	(*m)[id] = n
	return n
}
