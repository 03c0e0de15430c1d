//go:build !linux

package pack_test

import "time"

// processCPU is not measured outside Linux.
func processCPU() (time.Duration, bool) { return 0, false }
