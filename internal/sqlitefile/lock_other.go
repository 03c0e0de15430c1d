//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sqlitefile

import (
	"errors"
	"os"
)

var errNoLocks = errors.New("no advisory locks on this platform")

// lockFile is unavailable here: every open checks the file.
func lockFile(*os.File) (bool, error) { return false, errNoLocks }

// lockHeld cannot tell: a marker is taken as stale.
func lockHeld(string) (bool, error) { return false, errNoLocks }

// processAlive cannot tell here: every pid is taken as alive, and a stale
// temporary file goes once it is old enough.
func processAlive(int) bool { return true }
