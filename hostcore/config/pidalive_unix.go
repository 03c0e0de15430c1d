//go:build unix

package config

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with pid runs (one that another
// user owns, which may not be signalled, counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
