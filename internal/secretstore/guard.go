package secretstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// The fallback files hold tokens and API keys, so they are guarded as ssh
// guards a private key: a file that is not a regular file of the user's
// own (a symbolic link, another user's file) is refused, and one that
// others may read or write is made 0600 at once, with a warning that says
// so, since its tokens may have been read.

// errNotPrivate marks a fallback file the store refuses to use.
var errNotPrivate = errors.New("not a private file")

// readPrivate reads the fallback file at path, refusing or fixing it as
// above. A missing file is os.ErrNotExist.
func (s *Store) readPrivate(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, fmt.Errorf("%w: %s is a symbolic link; the host reads sign-ins only from a file of your own there: remove the link", errNotPrivate, path)
	case err != nil:
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file (%s); remove it", errNotPrivate, path, fi.Mode().Type())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return nil, fmt.Errorf("%w: %s belongs to another user (uid %d, you are %d): the host refuses the sign-ins in it, as ssh refuses a key it does not own; remove it",
			errNotPrivate, path, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return nil, fmt.Errorf("%w: %s is readable by others (mode %04o) and could not be made private: %v", errNotPrivate, path, perm, err)
		}
		if s.opts.Warn != nil {
			s.opts.Warn(fmt.Sprintf("%s was readable by others (mode %04o): made it 0600; whoever read it may hold its tokens, so sign out and in again to replace them", path, perm))
		}
	}
	return io.ReadAll(io.LimitReader(f, maxFileBytes))
}

// maxFileBytes bounds a fallback file: thousands of grants.
const maxFileBytes = 16 << 20
