//go:build !linux

package hostcore_test

import "time"

// processCPU is not measured outside Linux.
func processCPU() (time.Duration, bool) { return 0, false }
