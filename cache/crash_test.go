package cache

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writerEnv names the file TestHelperWriter writes to; set only in the
// subprocess that TestKilledWriterLeavesUsableFile starts.
const writerEnv = "ATTACHE_CACHE_CRASH_WRITER"

var crashAccounts = []string{"", "acme", "globex"}

// crashValue is a value that carries its own checksum: a CRC-32 of the
// payload, then the payload, from 100 bytes to about 15 KiB so that some
// rows spill into overflow pages.
func crashValue(i int) []byte {
	payload := bytes.Repeat([]byte(fmt.Sprintf("%d.", i)), 20+i%3000)
	return append(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(payload)), payload...)
}

func wholeValue(v []byte) bool {
	return len(v) >= 4 && binary.BigEndian.Uint32(v) == crc32.ChecksumIEEE(v[4:])
}

func crashEntry(i int) Entry {
	e := Entry{Key: readKey(fmt.Sprint("mem://", i%64)), Scope: Public, Value: crashValue(i), TTL: time.Hour}
	if e.Account = crashAccounts[i%3]; e.Account != "" {
		e.Scope = Private
	}
	return e
}

// TestHelperWriter is the process that gets killed: it puts, deletes,
// purges and evicts for ever, printing a marker every 20 puts.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(writerEnv)
	if path == "" {
		t.Skip("the writer of TestKilledWriterLeavesUsableFile; runs only in its subprocess")
	}
	s, err := Open(path, &Options{MaxBytes: 256 << 10, MemoryEntries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; ; i++ {
		err := s.Put(ctx, crashEntry(i))
		switch {
		case i%10 == 3:
			_, err = s.Delete(ctx, readKey(fmt.Sprint("mem://", i*7%64)))
		case i%100 == 57:
			_, err = s.Purge(ctx, Filter{Account: crashAccounts[1+i%2]})
		}
		if err != nil {
			t.Fatal(err)
		}
		if i%20 == 0 {
			fmt.Printf("wrote %d\n", i)
		}
	}
}

// TestKilledWriterLeavesUsableFile kills a writing process with SIGKILL,
// three times over the same file, and after each kill opens the file: it
// must open as it is (no recovery, nothing moved aside), pass
// integrity_check, and every entry it holds must be whole.
func TestKilledWriterLeavesUsableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	for round := range 3 {
		killWriter(t, path, 5)
		if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
			t.Fatalf("round %d: no write-ahead log after the kill (%v): the writer was not killed mid-flight", round, err)
		}
		found := verifyAfterKill(t, path)
		t.Logf("round %d: %d entries readable, all whole", round, found)
	}
}

// killWriter starts TestHelperWriter on path, waits for markers lines of
// output (a deadline, not a sleep, bounds the wait), and kills it.
func killWriter(t *testing.T, path string, markers int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), writerEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	writing, drained := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(drained)
		n, lines := 0, bufio.NewScanner(out)
		for n < markers && lines.Scan() {
			if strings.HasPrefix(lines.Text(), "wrote ") {
				n++
			}
		}
		writing <- n
		io.Copy(io.Discard, out) // keep the writer from blocking on a full pipe
	}()
	var n int
	select {
	case n = <-writing:
	case <-time.After(time.Minute):
	}
	cmd.Process.Kill() // SIGKILL on Unix: no deferred call, no Close
	<-drained
	cmd.Wait()
	if n < markers {
		t.Fatalf("the writer printed %d markers of %d before it stopped or the deadline passed; stderr:\n%s", n, markers, stderr.String())
	}
}

func verifyAfterKill(t *testing.T, path string) (found int) {
	t.Helper()
	var log bytes.Buffer
	s, err := Open(path, &Options{MemoryEntries: -1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatalf("Open after the kill: %v", err)
	}
	defer s.Close()
	if aside, _ := filepath.Glob(path + ".corrupt-*"); log.Len() != 0 || len(aside) != 0 {
		t.Fatalf("Open after the kill recovered instead of opening the file: %v %s", aside, log.String())
	}
	ctx := context.Background()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	for i := range 64 {
		for _, account := range crashAccounts {
			e, ok, err := s.Get(ctx, readKey(fmt.Sprint("mem://", i)), account)
			if err != nil {
				t.Fatal(err)
			}
			if ok && (!wholeValue(e.Value) || e.Size != int64(len(e.Value))) {
				t.Fatalf("entry %v for %q is torn: %d bytes, size %d", e.Key, account, len(e.Value), e.Size)
			}
			if ok {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no entry survived the kill; the test proves nothing")
	}
	return found
}
