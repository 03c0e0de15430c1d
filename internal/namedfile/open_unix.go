//go:build unix

package namedfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNonblocking opens path read-only with O_NONBLOCK, which makes the
// open of a FIFO return at once instead of waiting for a writer (and of a
// serial device, for its carrier). Reads of a regular file ignore the
// flag.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openNoFollow is openNonblocking that refuses a symbolic link as the last
// element of path (O_NOFOLLOW makes its open fail with ELOOP).
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink}
	}
	return f, err
}
