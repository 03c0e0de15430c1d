package cache

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkOpen256MiB opens a cache file holding 256 MiB of
// bodies (4,096 entries of 64 KiB), as every attachectl and every start of
// the app does. The file was closed cleanly, so no quick_check is due (see
// sqlitefile.Session); BenchmarkOpen256MiBChecked is the same open with the
// check, as after an unclean shutdown.
func BenchmarkOpen256MiB(b *testing.B) { benchOpen(b, false) }

// BenchmarkOpen256MiBChecked opens the same file after a session died.
func BenchmarkOpen256MiBChecked(b *testing.B) { benchOpen(b, true) }

func benchOpen(b *testing.B, crashed bool) {
	path := filepath.Join(b.TempDir(), "cache.db")
	s, err := Open(path, &Options{MaxBytes: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	value := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	for i := range 4096 {
		mustPut(b, s, Entry{Key: readKey(fmt.Sprint("threengram://memory/m-", i)), Scope: Public, Value: value})
	}
	if crashed {
		crash(s)
	} else if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(path, &Options{MaxBytes: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		if got := s.session.Checked != ""; got != crashed {
			b.Fatalf("checked %q on open; the benchmark measured the wrong open", s.session.Checked)
		}
		b.StopTimer() // closing is measured apart, in BenchmarkClose256MiB
		if crashed {
			crash(s)
		} else if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// crash closes s as a killed process would: no access times written, the
// session's marker left behind, unlocked.
func crash(s *Store) {
	s.closed.Store(true)
	s.writer.Close()
	s.db.Close()
	s.session.Leave()
}
