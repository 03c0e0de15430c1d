// Package namedfile reads the files a person names (a config, another
// host's config to import, a replay) so that no name can stop the program:
// only regular files are read, never a FIFO, a device, a socket or a
// directory (a FIFO's open or read waits for a writer that may never come;
// /dev/zero never ends); a file over its size cap is refused before it is
// read; and a read runs under a context, so that a budget or a signal ends
// the wait even when the kernel does not (a hung network file system).
//
// The functions keep no state and are safe for concurrent use.
package namedfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular matches (errors.Is) the error for a name that is not a
// regular file, a *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge matches (errors.Is) the error for a file or a stream over
// its cap, a *TooLargeError.
var ErrTooLarge = errors.New("too large")

// NotRegularError is a name that Open refused: what it names is not a
// regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Describe(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError is a file or a stream over its cap.
type TooLargeError struct {
	Name  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Name, Size(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Open opens the regular file at path for reading. It never waits on the
// file: the open does not block (on a FIFO it would, until a writer came),
// and a name that is not a regular file, after following symbolic links,
// is refused with a *NotRegularError.
func Open(path string) (*os.File, error) {
	f, err := openNonblocking(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = Regular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Regular returns nil if fi, the file at path, is a regular file, and
// otherwise a *NotRegularError that says what it is.
func Regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: fi.Mode()}
}

// Describe names a file's type as a person would: "a named pipe (FIFO)",
// "a character device".
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// Read returns the content of the regular file at path (see Open), which
// must hold at most limit bytes: a larger file is refused, before it is
// read when its size says so, with a *TooLargeError. When ctx ends first, Read returns ctx's error at once; the
// read it leaves behind closes the file when the kernel lets it finish.
func Read(ctx context.Context, path string, limit int64) ([]byte, error) {
	return await(ctx, func() ([]byte, error) {
		f, err := Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readFile(f, limit)
	})
}

// OpenNoFollow is Open for a file of secrets, which a planted link could
// redirect: when the last element of path is a symbolic link, it is
// refused with a *NotRegularError that says so, and never followed.
func OpenNoFollow(path string) (*os.File, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = Regular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadOpen reads f, a regular file from Open or OpenNoFollow, as Read
// reads a path: at most limit bytes (more is a *TooLargeError, refused
// before the read when the size says so), and no longer than ctx lasts.
// It leaves f open.
func ReadOpen(ctx context.Context, f *os.File, limit int64) ([]byte, error) {
	return await(ctx, func() ([]byte, error) { return readFile(f, limit) })
}

// readFile reads the open regular file f, refusing more than limit bytes.
func readFile(f *os.File, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, tooLarge(f.Name(), limit)
	}
	return readCapped(f, f.Name(), limit)
}

// ReadAll reads r to its end, as Read reads a file: at most limit bytes
// (more is a *TooLargeError, never a silent cut), and no
// longer than ctx lasts. name says what r is in errors ("stdin"). A read
// that ctx ended is left running; r should be something the process may
// abandon, such as its standard input.
func ReadAll(ctx context.Context, r io.Reader, name string, limit int64) ([]byte, error) {
	return await(ctx, func() ([]byte, error) { return readCapped(r, name, limit) })
}

// readCapped reads r whole, refusing more than limit bytes.
func readCapped(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(name, limit)
	}
	return b, nil
}

func tooLarge(name string, limit int64) error { return &TooLargeError{Name: name, Limit: limit} }

// Size writes a byte count as a person reads it: "4 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// await runs read on a goroutine of its own and returns its result, or
// ctx's error as soon as ctx ends.
func await(ctx context.Context, read func() ([]byte, error)) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned read still ends
	go func() {
		b, err := read()
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
