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

	"github.com/attache/attache/internal/sqlitefile"
)

// openRecovering opens the database at path. If the file cannot be used as
// a cache (see unusable), it is moved aside with a warning and a new one is
// created in its place: the cache is a copy of what servers hold, so losing
// it costs refetches, while refusing to start would cost the host.
func openRecovering(ctx context.Context, path string, now func() time.Time, log *slog.Logger) (*sql.DB, *sqlitefile.Session, error) {
	db, ss, err := openDB(ctx, path)
	if err == nil || !unusable(err) || !exists(path) {
		return db, ss, err
	}
	aside, mvErr := moveAside(path, now())
	if mvErr != nil {
		return nil, nil, fmt.Errorf("moving aside %s, which is unusable (%v): %w", path, err, mvErr)
	}
	log.Warn("cache file unusable: moved it aside and started a new one",
		"path", path, "moved_to", aside, "cause", err)
	return openDB(ctx, path)
}

// unusable reports whether err says the file itself is bad: not a
// database, corrupt, from a newer schema (this version cannot read it, and
// a cache is cheap to refill), or not ours to open. Errors of the moment (a
// lock held past the busy timeout, a full disk, a cancelled context) are
// not: moving a healthy file aside because another process was busy would
// throw away that process's cache.
func unusable(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, sqlitefile.ErrNewerSchema) ||
		errors.Is(err, fs.ErrPermission)
}

// moveAside renames path, with its -wal, -shm and -journal companions (a
// stale WAL must not be replayed into the new file) and its access file, to
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
	for _, suffix := range []string{"-wal", "-shm", "-journal", ".access"} {
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
