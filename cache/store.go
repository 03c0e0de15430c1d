package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/attache/attache/internal/sqlitefile"
)

// Store is a cache file and its in-memory tier. It is safe for concurrent
// use by multiple goroutines; several Stores, in one process or several,
// may share a file.
type Store struct {
	path     string
	maxBytes int64
	now      func() time.Time
	log      *slog.Logger
	db       *sql.DB
	session  *sqlitefile.Session
	// readOnly is set when the disk was too full to open the file for
	// writing (see Open): reads work, writes fail with ErrDiskFull.
	readOnly bool

	// writeMu serializes this Store's writes, which all go through writer.
	// One connection for every write is what makes data_version useful: it
	// changes only when another connection, another Store or process,
	// commits.
	writeMu     sync.Mutex
	writer      *sql.Conn
	dataVersion int64
	lookedAt    atomic.Int64 // unix nanoseconds of the last data_version read

	mem      *answers // nil when the memory tier is disabled
	access   accessLog
	accesses accessFile // what closing Stores recorded without a write

	hits, memoryHits, misses atomic.Int64
	closed                   atomic.Bool

	// testHookAfterRead, if set, runs between a Get's SQLite read and its
	// promotion to memory, so that a test can race a write against it.
	testHookAfterRead func()
}

// DefaultPath returns where the cache lives by default:
// os.UserCacheDir()/attache/cache.db. Overrides (--data-dir,
// ATTACHE_DATA_DIR) are the caller's business.
func DefaultPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache directory: %w", err)
	}
	return filepath.Join(dir, "attache", "cache.db"), nil
}

// Open opens the cache file at path, creating it and its directory if
// needed, and brings its schema up to date. A file that is not a usable
// cache is moved aside and replaced (see the package doc); Open fails only
// when no usable file can be had at path at all.
func Open(path string, opts *Options) (*Store, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("opening cache %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening cache %s: %w", path, err)
	}
	ctx := context.Background()
	db, ss, err := openRecovering(ctx, abs, o.Now, o.Logger)
	if err != nil {
		return nil, fmt.Errorf("opening cache %s: %w", abs, err)
	}
	s := &Store{path: abs, maxBytes: o.MaxBytes, now: o.Now, log: o.Logger, db: db, session: ss,
		readOnly: ss.ReadOnly(), mem: newAnswers(o.MemoryEntries, o.MemoryBytes), accesses: accessFile{abs + ".access"}}
	if s.writer, err = db.Conn(ctx); err == nil {
		s.dataVersion, err = s.readDataVersion(ctx)
	}
	if err != nil {
		db.Close()
		ss.End()
		return nil, fmt.Errorf("opening cache %s: %w", abs, err)
	}
	if ss.Checked != "" {
		s.log.Debug("checked the cache file on open", "path", abs, "why", ss.Checked)
	}
	if s.readOnly { // the caller says so where people look (ReadOnly)
		s.log.Info("the disk is full: the cache is read-only until it is opened again with room to write", "path", abs)
	}
	return s, nil
}

// ReadOnly reports whether the store was opened read-only because the disk
// was full: Gets and Stats work, and every write fails with ErrDiskFull.
func (s *Store) ReadOnly() bool { return s.readOnly }

// driverParams are the cache file's connection settings.
//
// WAL lets readers, including other processes, run beside the one writer,
// and makes a write an append that a crash cannot tear. synchronous=NORMAL
// rather than FULL: in WAL mode NORMAL still survives a killed process
// intact (the committed frames are in the OS's cache), and risks only the
// last transactions on power loss, never the file's consistency. For a
// cache that is the right trade: a lost entry is a refetch, and FULL would
// add an fsync to every Put. _txlock=immediate takes the write lock at
// BEGIN, so two writers wait on the busy timeout instead of deadlocking on
// an upgrade. _secure_delete=on zeroes what a delete removes, on its page
// or on a freed one, since the file holds private bodies that a purge
// must not leave readable; it costs a delete some writes, not a read.
const driverParams = "_journal_mode=WAL&_busy_timeout=5000&_synchronous=NORMAL&_txlock=immediate&_stmt_cache_size=16&_secure_delete=on"

// openDB opens and migrates the database at path, creating it if needed,
// and checks it when a check is due (see sqlitefile.Session: after an
// unclean shutdown, a change by anything else, or a week). An error that
// says the file is damaged wraps ErrCorrupt.
func openDB(ctx context.Context, path string) (*sql.DB, *sqlitefile.Session, error) {
	// The wall clock: the schedule is about the file. A disk too full to
	// open the file for writing opens it read-only: the bodies it holds
	// can still be served.
	db, ss, err := sqlitefile.OpenSession(ctx, path, driverParams, migrations, &sqlitefile.SessionOptions{ReadOnlyWhenFull: true})
	if err != nil {
		return nil, nil, corrupt(err)
	}
	// Readers run side by side in WAL mode; keeping a few connections idle
	// spares concurrent Gets the cost of opening one (the DSN's pragmas).
	db.SetMaxIdleConns(4)
	return db, ss, nil
}

// Close records pending access times and closes the file. Calls after
// the first return nil; every other method then returns ErrClosed.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	err := s.closeAccess(context.Background())
	if errors.Is(err, ErrDiskFull) {
		// Recency is lost, nothing else: the transaction rolled back and
		// the file is as sound as before, so the close is still clean.
		s.log.Warn("the disk is full: the cache's access times were not recorded", "path", s.path)
		err = nil
	}
	if err != nil {
		err = fmt.Errorf("recording access times: %w", err)
	}
	err = errors.Join(err, s.writer.Close(), s.db.Close())
	if err != nil {
		s.session.Leave() // the next open checks
		return err
	}
	return s.session.End() // closed cleanly: the next open need not check
}

// write runs fn in a transaction on the writer connection, after writing
// out the pending access times so that an eviction in fn sees them. A nil
// fn writes just those.
//
// Every error that says the disk is full wraps ErrDiskFull; so does every
// write to a read-only store, whose access times are dropped.
func (s *Store) write(ctx context.Context, fn func(*sql.Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	pending := s.access.take()
	switch {
	case fn == nil && len(pending) == 0, fn == nil && s.readOnly:
		return nil // no write lock, and no data_version bump for other processes
	case s.readOnly:
		return fmt.Errorf("the cache was opened read-only: %w", ErrDiskFull)
	}
	return sqlitefile.DiskFull(s.commit(ctx, pending, fn))
}

// commit writes pending, with the times that closing Stores left in the
// access file, and runs fn, in one transaction on the writer; once it has
// committed, the access file is emptied.
func (s *Store) commit(ctx context.Context, pending map[slot]int64, fn func(*sql.Tx) error) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	filed, ferr := s.accesses.readTimes(ctx)
	if ferr != nil {
		s.log.Warn("the cache's access file is unusable: emptying it", "path", s.accesses.path, "err", ferr)
	}
	if err := writeAccess(ctx, tx, mergeTimes(pending, filed)); err != nil {
		return fmt.Errorf("recording access times: %w", err)
	}
	if fn != nil {
		if err := fn(tx); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if filed != nil || ferr != nil { // the file held something
		if err := s.accesses.clear(); err != nil {
			s.log.Warn("emptying the cache's access file", "path", s.accesses.path, "err", err)
		}
	}
	return nil
}

// otherWritersInterval is how long the memory tier is trusted without a
// look at data_version. The look costs a statement (some microseconds, most
// of them file locking), which on every hit would make a memory hit barely
// cheaper than a SQLite one; once per interval it is free, and another
// process's purge reaches this Store's answers within a tenth of a second.
const otherWritersInterval = 100 * time.Millisecond

// noticeOtherWriters empties the memory tier if anyone but this Store has
// committed to the file since the last look, so that another process's
// Purge or Put is not hidden behind a stale answer for longer than
// otherWritersInterval. This Store's own writes need no look: they drop
// their answers as they commit.
func (s *Store) noticeOtherWriters(ctx context.Context, at time.Time) error {
	now := at.UnixNano()
	if since := now - s.lookedAt.Load(); since >= 0 && since < int64(otherWritersInterval) {
		return nil
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	v, err := s.readDataVersion(ctx)
	if err != nil {
		return err
	}
	if v != s.dataVersion {
		s.dataVersion = v
		s.mem.clear()
	}
	s.lookedAt.Store(now)
	return nil
}

// readDataVersion reads PRAGMA data_version on the writer connection. The
// caller holds writeMu, or has not shared s yet.
func (s *Store) readDataVersion(ctx context.Context) (int64, error) {
	var v int64
	if err := s.writer.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("reading data version: %w", err)
	}
	return v, nil
}
