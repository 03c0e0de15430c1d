//go:build !unix

package sqlitefile

import "syscall"

// noSpace reports whether errno says a write found no room on the device.
func noSpace(errno syscall.Errno) bool { return errno == syscall.ENOSPC }
