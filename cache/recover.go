package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/mattn/go-sqlite3"
)

// openRecovering opens the database at path. If the file cannot be used as
// a cache (see unusable), it is moved aside with a warning and a new one is
// created in its place: the cache is a copy of what servers hold, so losing
// it costs refetches, while refusing to start would cost the host.
func openRecovering(ctx context.Context, path string, now func() time.Time, log *slog.Logger) (*sql.DB, error) {
	db, err := openDB(ctx, path)
	if err == nil || !unusable(err) || !exists(path) {
		return db, err
	}
	aside, mvErr := moveAside(path, now())
	if mvErr != nil {
		return nil, fmt.Errorf("moving aside %s, which is unusable (%v): %w", path, err, mvErr)
	}
	log.Warn("cache file unusable: moved it aside and started a new one",
		"path", path, "moved_to", aside, "cause", err)
	return openDB(ctx, path)
}

// unusable reports whether err says the file itself is bad: not a
// database, corrupt, from a newer schema, or not ours to open. Errors of
// the moment (a lock held past the busy timeout, a full disk, a cancelled
// context) are not: moving a healthy file aside because another process
// was busy would throw away that process's cache.
func unusable(err error) bool {
	return corruptCode(err) || errors.Is(err, ErrCorrupt) || errors.Is(err, errNewerSchema) ||
		errors.Is(err, fs.ErrPermission)
}

// corruptCode reports whether err is SQLite's own word that the file is
// not a database or is damaged.
func corruptCode(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// moveAside renames path, with its -wal, -shm and -journal companions (a
// stale WAL must not be replayed into the new file), to
// <path>.corrupt-<unix time>, adding -1, -2... if that name is taken. It
// returns the new name.
func moveAside(path string, now time.Time) (string, error) {
	base := fmt.Sprintf("%s.corrupt-%d", path, now.Unix())
	aside := base
	for i := 1; exists(aside); i++ {
		if i > 100 {
			return "", fmt.Errorf("no free name beside %s", base)
		}
		aside = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		err := os.Rename(path+suffix, aside+suffix)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return aside, err
		}
	}
	return aside, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// ensureFile creates path, empty and readable by its owner only, unless it
// exists. SQLite gives its -wal and -shm files the mode of the database,
// so private bodies never land in a file other users can read. An empty
// file is a valid empty database.
func ensureFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}
