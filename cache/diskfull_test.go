package cache

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/internal/fulldisk"
)

// TestFullDiskDegrades: on a disk too full for SQLite to open the file for
// writing, the cache opens read-only: it serves what it holds, counts it,
// and refuses writes with ErrDiskFull; it closes without error and leaves
// no temporary file. With room again, it opens for writing.
func TestFullDiskDegrades(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	path := filepath.Join(dir, "cache.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, private("mem://1", "acme", "a body stored before the disk filled"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	free := fulldisk.Fill(t, dir)

	if s, err = Open(path, nil); err != nil {
		t.Fatalf("Open on a full disk: %v", err)
	}
	if !s.ReadOnly() {
		t.Error("the store does not say it is read-only")
	}
	if got := value(t, s, readKey("mem://1"), "acme"); got != "a body stored before the disk filled" {
		t.Errorf("Get on a full disk = %q", got)
	}
	if st, err := s.Stats(ctx, Filter{}); err != nil || st.Entries != 1 || !st.ReadOnly {
		t.Errorf("Stats on a full disk = %+v, %v", st, err)
	}
	for name, write := range map[string]func() error{
		"Put":    func() error { return s.Put(ctx, public("mem://2", "new")) },
		"Delete": func() error { _, err := s.Delete(ctx, readKey("mem://1")); return err },
		"Purge":  func() error { _, err := s.Purge(ctx, Filter{}); return err },
	} {
		if err := write(); !errors.Is(err, ErrDiskFull) {
			t.Errorf("%s on a full disk = %v; want ErrDiskFull", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close on a full disk: %v", err)
	}
	noTemps(t, dir)

	free()
	if s, err = Open(path, nil); err != nil || s.ReadOnly() {
		t.Fatalf("Open with room again: read-only %v, %v", s != nil && s.ReadOnly(), err)
	}
	mustPut(t, s, public("mem://2", "new"))
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

// TestDiskFillsWhileOpen: a store open for writing when the disk fills
// still serves its entries; a Put fails with ErrDiskFull (never a
// corruption: the file is not moved aside); Close, whose access times
// cannot be written, still closes cleanly.
func TestDiskFillsWhileOpen(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	path := filepath.Join(dir, "cache.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, public("mem://1", "kept"))
	fulldisk.Fill(t, dir)
	var perr error
	for i := 0; i < 100 && perr == nil; i++ { // until the -wal file finds no room
		perr = s.Put(ctx, public("mem://big", strings.Repeat("x", 64<<10)))
	}
	if !errors.Is(perr, ErrDiskFull) {
		t.Errorf("Put on a full disk = %v; want ErrDiskFull", perr)
	}
	if got := value(t, s, readKey("mem://1"), ""); got != "kept" {
		t.Errorf("Get on a full disk = %q", got)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close on a full disk: %v", err)
	}
	noTemps(t, dir)
}

// noTemps fails the test if dir holds a temporary file.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	if temps, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(temps) > 0 {
		t.Errorf("temporary files left behind: %v", temps)
	}
}
