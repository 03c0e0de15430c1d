//go:build !unix

package namedfile

import "os"

// openNonblocking opens path read-only. Where there are no FIFOs to wait
// on, a plain open is what Open needs; the type check after it still
// refuses a device.
func openNonblocking(path string) (*os.File, error) {
	return os.Open(path)
}
