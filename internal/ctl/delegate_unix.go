//go:build unix

package ctl

import (
	"os"
	"syscall"
)

// runInstead replaces this process with path, given args: the same
// process, so its terminal, its signals and its exit code are the new
// program's. It returns only when the exec failed.
func runInstead(path string, args []string) (int, error) {
	return exitUsage, syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
