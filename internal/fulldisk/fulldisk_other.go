//go:build !linux

// Package fulldisk gives tests a small file system of their own that they
// can fill; here, where it mounts none, its tests are skipped.
package fulldisk

import "testing"

// Mount skips the test: only Linux mounts a tmpfs here.
func Mount(t testing.TB, size int64) string {
	t.Skip("a small tmpfs to fill is mounted on Linux only")
	return ""
}

// Fill is not reached: Mount skipped the test.
func Fill(t testing.TB, dir string) (free func()) { return func() {} }
