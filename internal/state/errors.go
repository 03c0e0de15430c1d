package state

import (
	"errors"

	"github.com/attache/attache/hostcore/fault"
)

// Errors the Store returns, wrapped with context; match them with
// errors.Is. ErrNotFound and ErrInvalid also match hostcore's sentinels of
// the same kind (fault.ErrNotFound, fault.ErrInvalidParams), so that
// code written against hostcore.StateStore need not know this package.
var (
	// ErrNotFound: no conversation or attachment has the id, or it was
	// removed (restore it first).
	ErrNotFound error = &kindError{msg: "not found", kind: fault.ErrNotFound}
	// ErrInvalid: an attachment or a change was refused (an empty uri or
	// server name, an unknown origin, a priority outside 0..1).
	ErrInvalid error = &kindError{msg: "invalid input", kind: fault.ErrInvalidParams}
	// ErrConflict: restoring an attachment whose resource has been
	// attached again to the conversation since it was removed.
	ErrConflict = errors.New("attached again since it was removed")
	// ErrCorrupt: the file is not a sound SQLite database. Open leaves it
	// untouched.
	ErrCorrupt = errors.New("state file is damaged")
	// ErrNewerSchema: the file was written by a newer version of the
	// program. Open leaves it untouched.
	ErrNewerSchema = errors.New("state file is from a newer version of the program")
	// ErrDiskFull: a change found no room on the disk, or the file was
	// opened read-only because the disk was full (see Store.ReadOnly). It
	// also matches fault.ErrDiskFull. Nothing of the change was kept.
	ErrDiskFull error = &kindError{msg: "the disk is full", kind: fault.ErrDiskFull}
)

// kindError is a sentinel that also matches a hostcore sentinel.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }

// Is reports whether target is the hostcore sentinel of e's kind.
func (e *kindError) Is(target error) bool { return target == e.kind }
