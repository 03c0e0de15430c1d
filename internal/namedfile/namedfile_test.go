package namedfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, []byte(`{"servers":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := p + ".link"
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{p, link} {
		b, err := Read(context.Background(), name, 1<<10)
		if err != nil || string(b) != `{"servers":[]}` {
			t.Errorf("Read(%s) = %q, %v", name, b, err)
		}
	}
}

// A FIFO with no writer would block an open for ever, and a device such
// as /dev/zero never ends: both are refused at once, saying what they are.
func TestRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	tests := []struct{ path, says string }{
		{fifo, "is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "is a character device, not a regular file"},
		{t.TempDir(), "is a directory, not a regular file"},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := Read(ctx, tt.path, 1<<20)
		cancel()
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Read(%s) = %v, want ErrNotRegular saying %q", tt.path, err, tt.says)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Read(%s) waited for its context", tt.path)
		}
	}
}

func TestReadCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(p, make([]byte, 2<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Read(context.Background(), p, 1<<10)
	if !errors.Is(err, ErrTooLarge) || err.Error() != p+" is larger than 1 KiB" {
		t.Errorf("Read over the cap = %v", err)
	}
	if b, err := Read(context.Background(), p, 2<<10); err != nil || len(b) != 2<<10 {
		t.Errorf("Read at the cap = %d bytes, %v", len(b), err)
	}
	// A stream is cut at the cap and refused, never silently truncated.
	_, err = ReadAll(context.Background(), io.LimitReader(zeros{}, 5000), "stdin", 4096)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "stdin is larger than 4 KiB") {
		t.Errorf("ReadAll over the cap = %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// A read that never ends (a pipe whose writer says nothing) returns when
// its context ends.
func TestReadAllEndsWithContext(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := ReadAll(ctx, r, "stdin", 1<<20)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ReadAll after cancel = %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// A file of secrets is opened without following a link planted in its
// place, and read with the same cap as a named file.
func TestOpenNoFollow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(p, make([]byte, 2<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenNoFollow(link); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Errorf("OpenNoFollow(link) = %v, %v; want a refusal naming the link", f, err)
	}
	f, err := OpenNoFollow(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ReadOpen(context.Background(), f, 1<<10); !errors.Is(err, ErrTooLarge) || err.Error() != p+" is larger than 1 KiB" {
		t.Errorf("ReadOpen over the cap = %v", err)
	}
	if b, err := ReadOpen(context.Background(), f, 2<<10); err != nil || len(b) != 2<<10 {
		t.Errorf("ReadOpen at the cap = %d bytes, %v", len(b), err)
	}
}
