package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"syscall"

	"github.com/mattn/go-sqlite3"
)

// ErrDiskFull is wrapped by the errors of a write that failed for lack of
// space (or of quota), and of every write to a file opened read-only
// because the disk was full (see SessionOptions.ReadOnlyWhenFull).
var ErrDiskFull = errors.New("the disk is full")

// IsDiskFull reports whether err says the disk (or the user's quota) is
// full: it wraps ErrDiskFull, is SQLite's SQLITE_FULL, or carries ENOSPC or
// EDQUOT, as SQLite's disk I/O errors do when a write of the -shm or -wal
// file found no space.
func IsDiskFull(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrFull || noSpace(se.SystemErrno)) {
		return true
	}
	var errno syscall.Errno
	return errors.Is(err, ErrDiskFull) || errors.As(err, &errno) && noSpace(errno)
}

// DiskFull returns err with ErrDiskFull wrapped around it when it says the
// disk is full (and does not wrap it yet), and err as it is otherwise: a
// store passes its writes' errors through it, so that callers can tell a
// full disk from a fault with errors.Is.
func DiskFull(err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) || !IsDiskFull(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrDiskFull, err)
}

// openReadOnly opens the existing file at path read-only, for a disk too
// full to open it for writing: SQLite could not create or grow the -shm
// file, which a WAL database needs even to be read. It asks SQLite for a
// read-only connection, which shares another process's -shm where one is
// live; failing that, when the -wal file is empty or gone (every
// committed transaction is then in the file itself), it reads the file as
// immutable: no -shm, no locks. The file must be at the last schema
// version: a migration is a write. The Session it returns is read-only and
// leaves no marker and no record.
func openReadOnly(ctx context.Context, path, params string, migrations []string) (*sql.DB, *Session, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, err
	}
	q, err := url.ParseQuery(params)
	if err != nil {
		return nil, nil, err
	}
	q.Del("_journal_mode") // setting it is a write; the file keeps its mode
	q.Del("_txlock")       // BEGIN IMMEDIATE takes the write lock
	q.Set("mode", "ro")
	db, err := openAtVersion(ctx, URI(path, q.Encode()), len(migrations))
	if err != nil && walEmpty(path) {
		q.Set("immutable", "1")
		db, err = openAtVersion(ctx, URI(path, q.Encode()), len(migrations))
	}
	if err != nil {
		return nil, nil, err
	}
	return db, &Session{path: path, readOnly: true}, nil
}

// openAtVersion connects to uri and checks that its schema is at version.
func openAtVersion(ctx context.Context, uri string, version int) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", uri)
	if err != nil {
		return nil, err
	}
	v, err := schemaVersion(ctx, db)
	if err == nil && v != version {
		err = fmt.Errorf("the file is at schema version %d, and bringing it to %d is a write", v, version)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// walEmpty reports whether the -wal file beside path is missing or empty.
func walEmpty(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0
}
