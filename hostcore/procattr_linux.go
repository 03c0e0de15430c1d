//go:build linux

package hostcore

import "syscall"

// procAttr puts a stdio server in its own process group, and has the kernel
// send it SIGKILL when the thread that started it ends: with the host,
// however the host ends (see process.start for why the thread lives as
// long as the server).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
