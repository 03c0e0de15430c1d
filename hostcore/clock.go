package hostcore

import "time"

// Clock tells the time. Tests inject one; nil means time.Now.
type Clock func() time.Time

func (c Clock) now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}
