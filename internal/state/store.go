// Package state keeps the person's conversations and their attachments in a
// SQLite file of their own (state.db), apart from the cache: the cache may
// be purged, evicted or thrown away when damaged, this file never is.
//
// Every change is committed, and synced to disk, before the method that
// made it returns, so a process killed at any moment loses nothing it has
// acknowledged. Removals are soft: a removed conversation or attachment is
// hidden and can be restored by the Store that removed it until that Store
// is closed, when it is deleted for good. If the process dies instead of
// closing, a later Open deletes it once it has been removed for a day
// (staleRemoval): Open cannot tell a session that died from one that is
// still running, so it leaves recent removals to their owner.
//
// A damaged file is never moved aside or recreated: Open fails with an
// error wrapping ErrCorrupt that names the file, and leaves the file as it
// is for the person to restore from a backup or repair.
package state

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/sqlitefile"
)

var _ hostcore.StateStore = (*Store)(nil)

// Store is a state file opened for a session. It is safe for concurrent use
// by multiple goroutines. Writes are serialized within the Store and, across
// processes, by SQLite's write lock; reads run beside them.
//
// Two processes may share the file, each with its own Store: the desktop
// app and an attachectl run beside it. Each Store is a session with an id
// of its own, recorded on the rows it removes (removed_by), so that only
// that Store restores them or, at its Close, deletes them; another
// process's Open or Close leaves them alone unless they were removed more
// than staleRemoval ago.
type Store struct {
	path    string
	session string // removed_by of the rows this Store removes
	now     func() time.Time
	db      *sql.DB
	file    *sqlitefile.Session // marks the file open, so that a clean close spares the next open its check
	// readOnly is set when the disk was too full to open the file for
	// writing: reads work, changes fail with ErrDiskFull.
	readOnly bool
	writeMu  sync.Mutex
	closed   atomic.Bool
}

// staleRemoval is how long a removed row outlives a session that never
// closed: the next Open after it deletes the row. A session still running
// after a day loses its Undo of what it removed then; one that died leaves
// its removals for no longer than this.
const staleRemoval = 24 * time.Hour

// Options configure a Store. The zero value, and a nil *Options, are usable.
type Options struct {
	// Now tells the time of changes; nil means time.Now.
	Now func() time.Time
}

// DefaultPath returns where the state file lives in dataDir: state.db, a
// different file from the cache's cache.db, so that deleting the cache
// never deletes a conversation.
func DefaultPath(dataDir string) string {
	return filepath.Join(dataDir, "state.db")
}

// Open opens the state file at path, creating it and its directory if
// needed, checks it when a check is due (see sqlitefile.Session), brings its schema up to date and deletes the rows
// removed more than staleRemoval ago, by sessions that never closed. A
// damaged file, or one written by a newer version of the program, is
// refused and left untouched.
func Open(path string, opts *Options) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening state %s: %w", path, err)
	}
	s := &Store{path: abs, session: rand.Text(), now: time.Now}
	if opts != nil && opts.Now != nil {
		s.now = opts.Now
	}
	s.db, s.file, err = openDB(context.Background(), abs, s.stamp().Add(-staleRemoval))
	if err != nil {
		return nil, fmt.Errorf("opening state %s: %w", abs, err)
	}
	s.readOnly = s.file.ReadOnly()
	return s, nil
}

// ReadOnly reports whether the file was opened read-only because the disk
// was full: the conversations and their turns can be read, and every
// change fails with ErrDiskFull.
func (s *Store) ReadOnly() bool { return s.readOnly }

// openDB opens, checks and migrates the database at path, creating it if
// needed, and purges the rows removed before cutoff.
func openDB(ctx context.Context, path string, cutoff time.Time) (*sql.DB, *sqlitefile.Session, error) {
	// The check's schedule runs on the wall clock, not the injected one:
	// it is about the file, not about what the state records.
	// A disk too full to open the file for writing opens it read-only:
	// the person's conversations can still be read.
	db, ss, err := sqlitefile.OpenSession(ctx, path, driverParams, migrations, &sqlitefile.SessionOptions{ReadOnlyWhenFull: true})
	if err == nil && !ss.ReadOnly() { // a read-only file is left as it is, until there is room
		if err = purgeRemoved(ctx, db, `removed_at < ?`, formatTime(cutoff)); err == nil {
			err = scrubUserinfo(ctx, db)
		}
		if err != nil {
			db.Close()
			ss.Leave()
		}
	}
	if err != nil {
		return nil, nil, damaged(diskFull(err))
	}
	return db, ss, nil
}

// diskFull makes an error that says the disk is full match ErrDiskFull.
func diskFull(err error) error {
	switch {
	case err == nil || errors.Is(err, ErrDiskFull) || !sqlitefile.IsDiskFull(err):
		return err
	case errors.Is(err, sqlitefile.ErrDiskFull): // it says so already
		return fullError{err}
	}
	return fmt.Errorf("%w: %w", ErrDiskFull, err)
}

// fullError is an error that says the disk is full in its own words, and
// matches ErrDiskFull (and so fault.ErrDiskFull).
type fullError struct{ error }

func (e fullError) Is(target error) bool { return errors.Is(ErrDiskFull, target) }
func (e fullError) Unwrap() error        { return e.error }

// driverParams are the state file's connection settings.
//
// WAL makes a commit an append that a killed process cannot tear, and lets
// readers run beside the writer. synchronous=FULL syncs the log at every
// commit: this is the person's data, and NORMAL (what the cache uses) may
// lose the last commits on a power loss or an OS crash, after the Store
// told the caller they were safe. A handful of fsyncs per user action is a
// price worth paying. _txlock=immediate takes the write lock at BEGIN, so
// that the max(position)+1 read and its insert cannot interleave with
// another process's, and two writers wait on the busy timeout instead of
// failing on a lock upgrade. secure_delete zeroes what a change removes, so
// that a credential scrubbed from an old row (see scrubUserinfo) leaves no
// copy in a free page.
const driverParams = "_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_foreign_keys=1&_txlock=immediate&_secure_delete=on"

// damaged wraps this package's sentinel around an error that says the file
// is from a newer schema (ErrNewerSchema) or is not a sound database
// (ErrCorrupt), and for a damaged file tells the person what was (not)
// done about it.
func damaged(err error) error {
	switch {
	case errors.Is(err, sqlitefile.ErrNewerSchema):
		return fmt.Errorf("%w: %w", ErrNewerSchema, err)
	case sqlitefile.IsCorrupt(err):
		return fmt.Errorf("%w: %w (the file was left as it is: restore it from a backup, or move it away to start anew)",
			ErrCorrupt, err)
	}
	return err
}

// Close deletes the rows this Store removed, which can no longer be
// restored, and closes the file. Rows other sessions removed are left to
// them. Calls after the first return nil; other methods fail once Close
// has been called.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	var err error
	if !s.readOnly { // a read-only session removed nothing
		err = diskFull(purgeRemoved(context.Background(), s.db, `removed_by = ?`, s.session))
	}
	if errors.Is(err, ErrDiskFull) {
		err = nil // the removals wait for a later session (staleRemoval); the file is sound
	}
	if err = errors.Join(err, s.db.Close()); err != nil {
		s.file.Leave() // the next open checks
		return err
	}
	return s.file.End() // closed cleanly: the next open need not check
}

// purgeRemoved deletes for good, in one transaction, the removed
// attachments and conversations that the condition where (with its one
// argument arg) selects. A conversation's attachments go with it, by the
// foreign key's cascade, whoever removed them.
func purgeRemoved(ctx context.Context, db *sql.DB, where string, arg any) error {
	// Most of the time there is nothing to delete: finding that out with a
	// read spares Open and Close the write lock and a synced commit.
	var found int
	err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM attachments WHERE removed_at IS NOT NULL AND `+where+`)
		OR EXISTS (SELECT 1 FROM conversations WHERE removed_at IS NOT NULL AND `+where+`)`, arg, arg).Scan(&found)
	if err != nil {
		return fmt.Errorf("looking for removed rows: %w", err)
	}
	if found == 0 {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("deleting removed rows: %w", err)
	}
	defer tx.Rollback()
	for _, table := range []string{"attachments", "conversations"} {
		_, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE removed_at IS NOT NULL AND `+where, arg)
		if err != nil {
			return fmt.Errorf("deleting removed %s: %w", table, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("deleting removed rows: %w", err)
	}
	return nil
}

// write runs fn in a transaction and commits it. writeMu spares this
// Store's goroutines the busy timeout's sleeps; the immediate lock keeps
// other processes out.
//
// A change that finds no room on the disk, or any change to a read-only
// file, fails with an error wrapping ErrDiskFull.
func (s *Store) write(ctx context.Context, fn func(*sql.Tx) error) error {
	if s.readOnly {
		return fmt.Errorf("the conversations were opened read-only: %w", ErrDiskFull)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return diskFull(s.commit(ctx, fn))
}

// commit runs fn in a transaction and commits it.
func (s *Store) commit(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting a transaction: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing: %w", err)
	}
	return nil
}

// timeFormat is RFC 3339 with nanoseconds, fixed width so that stored
// times sort as strings. Times are stored in UTC.
const timeFormat = "2006-01-02T15:04:05.000000000Z07:00"

// stamp returns now in UTC, at the precision stored.
func (s *Store) stamp() time.Time { return s.now().UTC().Round(0) }

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(v string) (time.Time, error) {
	t, err := time.Parse(timeFormat, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading time %q: %w", v, err)
	}
	return t.UTC(), nil
}
