//go:build !unix

package namedfile

import (
	"io/fs"
	"os"
)

// openNonblocking opens path read-only. Where there are no FIFOs to wait
// on, a plain open is what Open needs; the type check after it still
// refuses a device.
func openNonblocking(path string) (*os.File, error) {
	return os.Open(path)
}

// openNoFollow refuses a symbolic link at path, then opens it. The check
// and the open are two steps here, where O_NOFOLLOW is not available.
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink}
	}
	return os.Open(path)
}
