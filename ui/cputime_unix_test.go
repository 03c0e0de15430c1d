//go:build unix

package ui

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) this process has used, and
// that its children waited for have used.
func cpuTime() (self, children time.Duration) {
	return rusage(syscall.RUSAGE_SELF), rusage(syscall.RUSAGE_CHILDREN)
}

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
