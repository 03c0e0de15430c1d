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

	"github.com/attache/attache/internal/namedfile"
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
	// ReadOnlyWhenFull opens the file read-only when the disk is too full
	// to open it for writing (see ReadOnly): a store that can still answer
	// reads degrades instead of stopping. Without it, such an open fails
	// with an error wrapping ErrDiskFull.
	ReadOnlyWhenFull bool
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
	// readOnly marks a session opened read-only on a full disk.
	readOnly bool
}

// ReadOnly reports whether the file was opened read-only because the disk
// was full (SessionOptions.ReadOnlyWhenFull): every write to it fails, and
// End records nothing.
func (s *Session) ReadOnly() bool { return s != nil && s.readOnly }

var sessionSeq atomic.Int64

// OpenSession is Open, with quick_check only when Session says it is due.
// On error nothing is left open and no marker is left behind. An open that
// fails for lack of space wraps ErrDiskFull, or, with ReadOnlyWhenFull,
// opens the file read-only.
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
	db, s, err := openSession(ctx, path, params, migrations, &o)
	if err = DiskFull(err); err == nil || !o.ReadOnlyWhenFull || !errors.Is(err, ErrDiskFull) {
		return db, s, err
	}
	db, s, roErr := openReadOnly(ctx, path, params, migrations)
	if roErr != nil {
		return nil, nil, fmt.Errorf("%w; nor could it be opened read-only: %v", err, roErr)
	}
	return db, s, nil
}

// openSession is OpenSession's open for writing.
func openSession(ctx context.Context, path, params string, migrations []string, o *SessionOptions) (*sql.DB, *Session, error) {
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
	removeStaleTemps(s.path, s.now())
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
// as this session leaves it. On a full disk the record is not written, and
// the next open checks the file. A read-only session records nothing.
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
		if IsDiskFull(err) {
			// No room for the record: the one left describes the file as
			// it was, so the next open checks it, as after a crash.
			err = nil
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
	b, err := namedfile.Read(context.Background(), s.path+".clean", maxRecordBytes)
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

// maxRecordBytes bounds <path>.clean, three numbers on a line.
const maxRecordBytes = 4 << 10

// writeAtomically replaces path's content with s through a rename, so that
// a reader never sees half a record. The temporary file,
// <path>.<pid>-<n>.tmp, is removed if the write fails (a full disk); one
// that a killed process left between its write and its rename is removed
// by a later session's begin (removeStaleTemps).
func writeAtomically(path, s string) error {
	tmp := fmt.Sprintf("%s.%d-%d.tmp", path, os.Getpid(), sessionSeq.Add(1))
	err := os.WriteFile(tmp, []byte(s), 0o600)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// staleTemp is the age past which a temporary record is stale whoever
// wrote it: writing one takes milliseconds, so an hour-old one is left by
// a process that died, or whose pid another process has taken since.
const staleTemp = time.Hour

// removeStaleTemps removes the temporary records (writeAtomically's
// <path>.clean.<pid>-<n>.tmp, and <path>.clean.<pid>.tmp as earlier
// versions named them) that no live writer can still rename: those of a
// pid that runs no process, and those older than staleTemp. Another
// process's fresh one is left alone, since it may be renaming it right
// now, and so is this process's own (another Store of the same file).
func removeStaleTemps(path string, now time.Time) {
	prefix := path + ".clean."
	temps, _ := filepath.Glob(globEscape(prefix) + "*.tmp")
	for _, tmp := range temps {
		fi, err := os.Lstat(tmp)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		id := strings.TrimSuffix(strings.TrimPrefix(tmp, prefix), ".tmp")
		pidText, _, _ := strings.Cut(id, "-")
		pid, err := strconv.Atoi(pidText)
		ours := err == nil && pid == os.Getpid()
		dead := err == nil && pid > 0 && !ours && !processAlive(pid)
		if dead || now.Sub(fi.ModTime()) > staleTemp {
			os.Remove(tmp)
		}
	}
}

// globEscape escapes the metacharacters of filepath.Match in a literal path.
func globEscape(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(p)
}
