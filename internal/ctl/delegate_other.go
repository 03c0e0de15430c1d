//go:build !unix

package ctl

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
)

// runInstead runs path with args as a child sharing this process's
// standard streams, and returns its exit code. Interrupts reach the child
// through the console; this process only waits.
func runInstead(path string, args []string) (int, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return exitUsage, err
	}
	return 0, nil
}
