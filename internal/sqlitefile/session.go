package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultCheckEvery is how long a file that every session closed cleanly
// goes without a quick_check.
const DefaultCheckEvery = 7 * 24 * time.Hour

// SessionOptions configure OpenSession. The zero value, and nil, are usable.
type SessionOptions struct {
	// CheckEvery is how long a file may go without a quick_check; zero
	// means DefaultCheckEvery.
	CheckEvery time.Duration
	// Now tells the time; nil means time.Now.
	Now func() time.Time
}

// A Session marks a database file open by one Store, from OpenSession to
// End. It is what lets Open skip PRAGMA quick_check: the check reads every
// page, so it costs time in proportion to the file (about 0.6 ms for a
// small cache, tens of milliseconds for a full one), and a file that every
// session closed cleanly, untouched since, has no need of it.
//
// Beside the database at path live:
//   - <path>.open-<pid>-<n>, one per open session, holding an exclusive
//     advisory lock (flock) for as long as its process lives. A marker
//     whose lock can be taken was left by a process that died without End:
//     an unclean shutdown.
//   - <path>.clean, written by End when it changed: when the file was
//     last checked, and its size and modification time as the last session
//     left it, so that a file changed by anything else (a copy, a restore,
//     a damaged disk) is checked again.
//
// OpenSession runs quick_check when a marker is stale, when the file is not
// as the last clean End left it (and no other session has it open), when
// the last check is older than CheckEvery, or when the platform has no
// advisory locks. A Session's methods are not safe for concurrent use; the
// Store that owns it calls End once, after closing its *sql.DB.
type Session struct {
	path    string
	marker  *os.File // nil where there are no advisory locks
	checked time.Time
	now     func() time.Time
	// record is <path>.clean as OpenSession found it, "" if missing or
	// unreadable: End leaves a record that would not change alone.
	record string
	// Checked says why OpenSession ran quick_check, or is "" if it did not.
	Checked string
}

var sessionSeq atomic.Int64

// OpenSession is Open, with quick_check only when Session says it is due.
// On error nothing is left open and no marker is left behind.
func OpenSession(ctx context.Context, path, params string, migrations []string, opts *SessionOptions) (*sql.DB, *Session, error) {
	var o SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.CheckEvery <= 0 {
		o.CheckEvery = DefaultCheckEvery
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := create(path); err != nil {
		return nil, nil, err
	}
	s := &Session{path: path, now: o.Now}
	stale, live, err := s.begin()
	if err != nil {
		return nil, nil, err
	}
	last, clean := s.readClean()
	switch {
	case s.marker == nil:
		s.Checked = "no advisory locks on this platform"
	case len(stale) > 0:
		s.Checked = "a session ended uncleanly"
	case !clean && !live:
		s.Checked = "the file is not as the last session left it"
	case o.Now().Sub(last) >= o.CheckEvery:
		s.Checked = "scheduled"
	}
	s.checked = last
	db, err := open(ctx, path, params, migrations, s.Checked != "")
	if err != nil {
		s.abandon()
		return nil, nil, err
	}
	if s.Checked != "" {
		s.checked = o.Now()
		for _, m := range stale {
			os.Remove(m) // checked: their crash is dealt with
		}
	}
	return db, s, nil
}

// begin looks at the other sessions' markers, returning the stale ones and
// whether any is live, and creates this session's, locked.
func (s *Session) begin() (stale []string, live bool, err error) {
	markers, err := filepath.Glob(globEscape(s.path) + ".open-*")
	if err != nil {
		return nil, false, err
	}
	for _, m := range markers {
		switch held, err := lockHeld(m); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || !held:
			stale = append(stale, m)
		default:
			live = true
		}
	}
	name := fmt.Sprintf("%s.open-%d-%d", s.path, os.Getpid(), sessionSeq.Add(1))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("marking the file open: %w", err)
	}
	if ok, err := lockFile(f); err != nil || !ok {
		f.Close()
		os.Remove(name)
		if err != nil && !errors.Is(err, errNoLocks) {
			return nil, false, fmt.Errorf("locking %s: %w", name, err)
		}
		return stale, live, nil // no locks here: every open checks
	}
	s.marker = f
	return stale, live, nil
}

// End marks the session closed cleanly: it records the check time and the
// file's size and modification time in <path>.clean, and removes the
// session's marker. Call it after the *sql.DB is closed, so that the file is
// as this session leaves it.
func (s *Session) End() error {
	if s == nil || s.marker == nil {
		return nil
	}
	var err error
	if fi, serr := os.Stat(s.path); serr == nil {
		// A session that wrote nothing (a process that read one entry)
		// leaves the file, and so its record, as it found them.
		if rec := cleanRecord(s.checked, fi); rec != s.record {
			err = writeAtomically(s.path+".clean", rec)
		}
	}
	s.abandon()
	return err
}

// Leave ends the session as a crash would: the marker stays, unlocked, so
// that the next open checks the file. A store calls it when closing failed.
func (s *Session) Leave() {
	if s == nil || s.marker == nil {
		return
	}
	s.marker.Close()
	s.marker = nil
}

// abandon removes the marker without recording anything.
func (s *Session) abandon() {
	if s.marker == nil {
		return
	}
	name := s.marker.Name()
	os.Remove(name)
	s.marker.Close()
	s.marker = nil
}

// readClean returns when the file was last checked and whether it is as
// the last clean End left it. A missing or unreadable record says "never,
// and not clean".
func (s *Session) readClean() (checked time.Time, clean bool) {
	b, err := os.ReadFile(s.path + ".clean")
	if err != nil {
		return time.Time{}, false
	}
	s.record = string(b)
	f := strings.Fields(string(b))
	if len(f) != 3 {
		return time.Time{}, false
	}
	var n [3]int64
	for i := range n {
		if n[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			return time.Time{}, false
		}
	}
	fi, err := os.Stat(s.path)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(0, n[0]), fi.Size() == n[1] && fi.ModTime().UnixNano() == n[2]
}

// cleanRecord is what End writes to <path>.clean: when the file was last
// checked, and its size and modification time.
func cleanRecord(checked time.Time, fi fs.FileInfo) string {
	return fmt.Sprintf("%d %d %d\n", checked.UnixNano(), fi.Size(), fi.ModTime().UnixNano())
}

// writeAtomically replaces path's content with s through a rename, so that
// a reader never sees half a record.
func writeAtomically(path, s string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, []byte(s), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// globEscape escapes the metacharacters of filepath.Match in a literal path.
func globEscape(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}
