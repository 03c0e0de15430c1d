//go:build linux

// Package fulldisk gives tests a small file system of their own that they
// can fill: a tmpfs mounted on a temporary directory. Mounting needs root
// (CAP_SYS_ADMIN); where it is refused, the test is skipped and says why.
package fulldisk

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// Mount mounts a tmpfs of size bytes on a new temporary directory and
// returns it; the test's cleanup unmounts it. Without the right to mount,
// it skips the test.
func Mount(t testing.TB, size int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "small-disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	opts := "size=" + strconv.FormatInt(size, 10) + ",mode=0700"
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (mount needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	return dir
}

// Fill writes a file into dir until the file system has no space left,
// and returns a function that frees the space again.
func Fill(t testing.TB, dir string) (free func()) {
	t.Helper()
	f, err := os.CreateTemp(dir, "filler-*")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", dir, err)
			}
			break
		}
	}
	// The last blocks a partial write may have left: take them too.
	for {
		if _, err := f.Write(block[:512]); err != nil {
			break
		}
	}
	return func() { os.Remove(f.Name()) }
}
