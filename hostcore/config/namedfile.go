package config

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/attache/attache/hostcore/fault"

	"github.com/attache/attache/internal/namedfile"
)

// MaxConfigBytes bounds the config file and each file it imports. A
// config is a few kilobytes; a larger one is a mistake (the wrong file
// named), refused before it is read.
const MaxConfigBytes = 4 << 20

// readNamedFile reads a config or an import: ReadNamedFile, capped at
// MaxConfigBytes.
func readNamedFile(ctx context.Context, what, path string) ([]byte, error) {
	return ReadNamedFile(ctx, what, path, MaxConfigBytes)
}

// ReadNamedFile reads a file a person named, what it is ("config", "the
// replay") and its path, for no longer than ctx lasts, and returns the
// error a person sees: a FIFO, a device or a directory is refused at once
// (never waited on), a file over limit bytes too (usage errors), and a
// budget that runs out or a signal ends the wait (timeout, canceled). A
// missing file is not found, and its error matches os.ErrNotExist.
func ReadNamedFile(ctx context.Context, what, path string, limit int64) ([]byte, error) {
	data, err := namedfile.Read(ctx, path, limit)
	if err == nil {
		return data, nil
	}
	return nil, namedFileError(err, what+" "+path)
}

// ReadNamedStream is ReadNamedFile for a stream (standard input), named
// what ("the replay on stdin").
func ReadNamedStream(ctx context.Context, what string, r io.Reader, limit int64) ([]byte, error) {
	data, err := namedfile.ReadAll(ctx, r, what, limit)
	if err == nil {
		return data, nil
	}
	return nil, namedFileError(err, what)
}

// namedFileError is the *Error for a failed read of name ("config PATH").
func namedFileError(err error, name string) error {
	var nr *namedfile.NotRegularError
	var tl *namedfile.TooLargeError
	switch { // the first two messages say it all: no detail to repeat
	case errors.As(err, &nr):
		return fault.New(fault.KindUsage, nil, "%s is %s, not a regular file", name, namedfile.Describe(nr.Mode))
	case errors.As(err, &tl):
		return fault.New(fault.KindUsage, nil, "%s is larger than %s", name, namedfile.Size(tl.Limit))
	case errors.Is(err, context.DeadlineExceeded):
		return fault.New(fault.KindTimeout, err, "the time ran out while reading %s", name)
	case errors.Is(err, context.Canceled):
		return fault.New(fault.KindCanceled, err, "stopped while reading %s", name)
	case errors.Is(err, fs.ErrNotExist):
		return fault.New(fault.KindNotFound, err, "reading %s: there is no such file", name)
	}
	return fault.New(fault.KindUsage, err, "reading %s", name)
}
