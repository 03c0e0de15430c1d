package secretstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/attache/attache/internal/namedfile"
)

// The fallback files hold tokens and API keys, so they are guarded as ssh
// guards a private key: a file that is not a regular file of the user's
// own (a symbolic link, another user's file) is refused, and one that
// others may read or write is made 0600 at once, with a warning that says
// so, since its tokens may have been read.

// errNotPrivate marks a fallback file the store refuses to use.
var errNotPrivate = errors.New("not a private file")

// readPrivate reads the fallback file at path, refusing or fixing it as
// above, through namedfile: a FIFO or a device there is refused at once,
// and a file over maxFileBytes is refused, never cut short. A missing file
// is os.ErrNotExist.
func (s *Store) readPrivate(path string) ([]byte, error) {
	f, err := namedfile.OpenNoFollow(path)
	var nr *namedfile.NotRegularError
	switch {
	case errors.As(err, &nr) && nr.Mode&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%w: %s is a symbolic link; the host reads sign-ins only from a file of your own there: remove the link", errNotPrivate, path)
	case errors.As(err, &nr):
		return nil, fmt.Errorf("%w: %s is %s, not a regular file; remove it", errNotPrivate, path, namedfile.Describe(nr.Mode))
	case err != nil:
		return nil, err
	}
	defer f.Close()
	if err := s.guard(f, path); err != nil {
		return nil, err
	}
	b, err := namedfile.ReadOpen(context.Background(), f, maxFileBytes)
	if errors.Is(err, namedfile.ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than %s, more than any store of sign-ins holds: move it away and sign in again", path, namedfile.Size(maxFileBytes))
	}
	return b, err
}

// guard refuses f, the fallback file at path, when it is another user's,
// and makes it 0600, with a warning, when others may read or write it.
func (s *Store) guard(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to another user (uid %d, you are %d): the host refuses the sign-ins in it, as ssh refuses a key it does not own; remove it",
			errNotPrivate, path, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("%w: %s is readable by others (mode %04o) and could not be made private: %v", errNotPrivate, path, perm, err)
		}
		if s.opts.Warn != nil {
			s.opts.Warn(fmt.Sprintf("%s was readable by others (mode %04o): made it 0600; whoever read it may hold its tokens, so sign out and in again to replace them", path, perm))
		}
	}
	return nil
}

// maxFileBytes bounds a fallback file: thousands of grants.
const maxFileBytes = 16 << 20
