//go:build !linux

package main

import "time"

// processStart is unknown outside Linux: the start-up is measured from
// main, which leaves out the runtime's and the packages' initialisation.
func processStart() (time.Time, bool) { return time.Time{}, false }

// cpuTimes is unknown outside Linux.
func cpuTimes() (thread, process time.Duration, ok bool) { return 0, 0, false }
