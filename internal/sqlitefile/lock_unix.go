//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sqlitefile

import (
	"errors"
	"os"
	"syscall"

	"github.com/attache/attache/internal/namedfile"
)

var errNoLocks = errors.New("no advisory locks on this platform")

// lockFile takes an exclusive advisory lock on f without waiting. The
// kernel releases it when the process dies, however it dies.
func lockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// lockHeld reports whether a session holds the lock on the marker at name.
func lockHeld(name string) (bool, error) {
	f, err := namedfile.Open(name) // never waits: a FIFO is refused
	if err != nil {
		return false, err
	}
	defer f.Close()
	ok, err := lockFile(f)
	if err != nil {
		return false, err
	}
	return !ok, nil // taking it means no one held it; closing f lets go
}

// processAlive reports whether a process with pid runs (one that another
// user owns, which may not be signalled, counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
