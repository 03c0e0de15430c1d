//go:build unix

package sqlitefile

import "syscall"

// noSpace reports whether errno says a write found no room: no space on
// the device, or the user's disk quota spent.
func noSpace(errno syscall.Errno) bool { return errno == syscall.ENOSPC || errno == syscall.EDQUOT }
