// Package sqlitefile is a SQLite database file as Attaché's stores keep
// one: its driver URI, its versioned migrations and its integrity checks.
//
// The package holds the plumbing and none of the choices. Each store
// passes its own driver parameters (how durable a commit is, whether
// foreign keys hold) and its own migration steps, and decides what a
// damaged file means to it: the cache moves it aside and starts anew, the
// state store refuses it. Errors that say the file itself is bad wrap
// ErrCorrupt or ErrNewerSchema (see IsCorrupt); a store matches them and
// wraps them again into its own sentinels.
//
// The functions keep no state of their own: they are as safe for
// concurrent use as the *sql.DB they are given.
package sqlitefile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // the driver Open and URI are for

	"github.com/attache/attache/internal/namedfile"
)

// Open opens the database file at path, an absolute path, with the driver
// parameters params (see URI). It creates the file's directory and the file
// if they do not exist, connects, runs QuickCheck and brings the schema up
// to date with Migrate(migrations). On error nothing is left open. A store
// that closes cleanly opens with OpenSession, which checks only when a
// check is due.
//
// The directory is made readable by its owner only, and so is the file,
// before SQLite sees it: SQLite gives its -wal and -shm files the mode of
// the database, and would otherwise create all three with the umask's.
func Open(ctx context.Context, path, params string, migrations []string) (*sql.DB, error) {
	if err := create(path); err != nil {
		return nil, err
	}
	return open(ctx, path, params, migrations, true)
}

// open connects to the file at path, runs QuickCheck if check is set, and
// migrates it.
func open(ctx context.Context, path, params string, migrations []string, check bool) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", URI(path, withoutWALIfSet(path, params)))
	if err != nil {
		return nil, err
	}
	if err = db.PingContext(ctx); err != nil {
		err = fmt.Errorf("connecting: %w", err)
	}
	if err == nil && check {
		err = Check(ctx, db, QuickCheck)
	}
	if err == nil {
		err = Migrate(ctx, db, migrations)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// create makes path's directory (0700) and path itself (0600, empty) unless
// they exist. An empty file is a valid empty database. A path that names
// something other than a regular file (a FIFO, whose reads would wait for
// ever; a device) is refused with an error wrapping
// namedfile.ErrNotRegular.
func create(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating the directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil {
		err = namedfile.Regular(path, fi)
	}
	return errors.Join(err, f.Close())
}
