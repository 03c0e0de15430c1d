package sqlitefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attache/attache/internal/fulldisk"
)

// textTable is a schema with one table of text.
var textTable = []string{`CREATE TABLE t (v TEXT)`}

// TestReadOnlyWhenFull: on a disk too full for SQLite to create its -shm
// file, a WAL file that a clean session left opens read-only and answers
// reads; a write fails with ErrDiskFull. Without ReadOnlyWhenFull the open
// fails, wrapping ErrDiskFull. Once there is room again, the file opens
// for writing as before, and no temporary file is left behind.
func TestReadOnlyWhenFull(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	path := filepath.Join(dir, "s.db")
	db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", textTable, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO t (v) VALUES ('kept')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
	free := fulldisk.Fill(t, dir)

	if _, _, err := OpenSession(ctx, path, "_journal_mode=WAL", textTable, nil); !errors.Is(err, ErrDiskFull) {
		t.Errorf("open for writing on a full disk = %v; want ErrDiskFull", err)
	}
	db, s, err = OpenSession(ctx, path, "_journal_mode=WAL&_txlock=immediate", textTable, &SessionOptions{ReadOnlyWhenFull: true})
	if err != nil {
		t.Fatalf("read-only open on a full disk: %v", err)
	}
	if !s.ReadOnly() {
		t.Error("the session does not say it is read-only")
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT v FROM t`).Scan(&v); err != nil || v != "kept" {
		t.Errorf("read on a full disk = %q, %v", v, err)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO t (v) VALUES ('more')`)
	if err == nil {
		t.Error("a write to the read-only file succeeded")
	}
	db.Close()
	if err := s.End(); err != nil {
		t.Errorf("End of a read-only session: %v", err)
	}

	free()
	db, s, err = OpenSession(ctx, path, "_journal_mode=WAL", textTable, &SessionOptions{ReadOnlyWhenFull: true})
	if err != nil || s.ReadOnly() {
		t.Fatalf("open once there is room: read-only %v, %v", s.ReadOnly(), err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO t (v) VALUES ('more')`); err != nil {
		t.Errorf("write once there is room: %v", err)
	}
	db.Close()
	s.End()
	temps, _ := filepath.Glob(path + "*.tmp")
	if len(temps) > 0 {
		t.Errorf("temporary files left behind: %v", temps)
	}
}

// A write that finds the disk full wraps ErrDiskFull once passed through
// DiskFull, and so does SQLite's own error for it.
func TestDiskFullWrapsWrites(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	path := filepath.Join(dir, "s.db")
	db, s, err := OpenSession(ctx, path, "_journal_mode=WAL", textTable, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	defer db.Close()
	fulldisk.Fill(t, dir)
	var werr error
	for i := 0; i < 1000 && werr == nil; i++ { // until the -wal file finds no room
		_, werr = db.ExecContext(ctx, `INSERT INTO t (v) VALUES (?)`, string(make([]byte, 4096)))
	}
	if !IsDiskFull(werr) || !errors.Is(DiskFull(werr), ErrDiskFull) {
		t.Errorf("a write on a full disk = %v; want one IsDiskFull says is", werr)
	}
	if IsDiskFull(os.ErrPermission) || DiskFull(os.ErrPermission) != os.ErrPermission {
		t.Error("a permission error passes for a full disk")
	}
}
