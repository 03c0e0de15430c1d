// Package state keeps the person's conversations and their attachments in a
// SQLite file of their own (state.db), apart from the cache: the cache may
// be purged, evicted or thrown away when damaged, this file never is.
//
// Every change is committed, and synced to disk, before the method that
// made it returns, so a process killed at any moment loses nothing it has
// acknowledged. Removals are soft: a removed conversation or attachment is
// hidden and can be restored until the Store is closed, when it is deleted
// for good. If the process dies instead of closing, the next Open, which
// starts a new session, deletes it.
//
// A damaged file is never moved aside or recreated: Open fails with an
// error wrapping ErrCorrupt that names the file, and leaves the file as it
// is for the person to restore from a backup or repair.
package state

import (
	"context"
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
// Two processes may share the file, but a session's removals are only
// undoable while no other process opens the file: each Open deletes every
// removed row, since it cannot tell a session that died from one that is
// still running.
type Store struct {
	path    string
	now     func() time.Time
	db      *sql.DB
	writeMu sync.Mutex
	closed  atomic.Bool
}

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
// needed, checks it, brings its schema up to date and deletes the rows a
// previous session removed. A damaged file, or one written by a newer
// version of the program, is refused and left untouched.
func Open(path string, opts *Options) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening state %s: %w", path, err)
	}
	db, err := openDB(context.Background(), abs)
	if err != nil {
		return nil, fmt.Errorf("opening state %s: %w", abs, err)
	}
	s := &Store{path: abs, now: time.Now, db: db}
	if opts != nil && opts.Now != nil {
		s.now = opts.Now
	}
	return s, nil
}

// openDB opens, checks, migrates and purges the database at path,
// creating it if needed.
func openDB(ctx context.Context, path string) (*sql.DB, error) {
	db, err := sqlitefile.Open(ctx, path, driverParams, migrations)
	if err == nil {
		if err = purgeRemoved(ctx, db); err != nil {
			db.Close()
		}
	}
	if err != nil {
		return nil, damaged(err)
	}
	return db, nil
}

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
// failing on a lock upgrade.
const driverParams = "_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_foreign_keys=1&_txlock=immediate"

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

// Close deletes the rows removed during the session, which can no longer
// be restored, and closes the file. Calls after the first return nil; other
// methods fail once Close has been called.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	err := purgeRemoved(context.Background(), s.db)
	return errors.Join(err, s.db.Close())
}

// purgeRemoved deletes removed attachments and conversations for good (a
// conversation's attachments go with it, by the foreign key's cascade).
func purgeRemoved(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `DELETE FROM attachments WHERE removed_at IS NOT NULL;
		DELETE FROM conversations WHERE removed_at IS NOT NULL;`)
	if err != nil {
		return fmt.Errorf("deleting removed rows: %w", err)
	}
	return nil
}

// write runs fn in a transaction and commits it. writeMu spares this
// Store's goroutines the busy timeout's sleeps; the immediate lock keeps
// other processes out.
func (s *Store) write(ctx context.Context, fn func(*sql.Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
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
