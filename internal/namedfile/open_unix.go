//go:build unix

package namedfile

import (
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
