//go:build !linux

package hostcache_test

import "time"

// processCPU is not measured outside Linux.
func processCPU() (time.Duration, bool) { return 0, false }
