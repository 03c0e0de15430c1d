//go:build !linux

package hostcore

import "syscall"

// procAttr puts a stdio server in its own process group. Outside Linux
// there is no parent-death signal: the watchdog alone ends a server whose
// host died without closing it.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
