package secretstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
)

var key = hostcore.GrantKey{Resource: "https://mcp.example.com/mcp", Account: "me"}

// fileStore is a store in the fallback file, with a grant saved, and the
// warnings it gave.
func fileStore(t *testing.T) (*Store, *[]string) {
	t.Helper()
	var warned []string
	s := Open(t.TempDir(), &Options{File: true, Warn: func(m string) { warned = append(warned, m) }})
	if err := s.Save(context.Background(), &hostcore.Grant{ID: "g1", Resource: key.Resource, Account: key.Account}); err != nil {
		t.Fatal(err)
	}
	return s, &warned
}

// The grant file is guarded as ssh guards a key: one others may read is
// made 0600 at once, with a warning that says so; a symbolic link and a
// file of another user's are refused, saying why.
func TestGrantFileGuard(t *testing.T) {
	t.Run("readable by others", func(t *testing.T) {
		s, warned := fileStore(t)
		if err := os.Chmod(s.FilePath(), 0o644); err != nil {
			t.Fatal(err)
		}
		if g, err := s.Load(context.Background(), key); err != nil || g == nil {
			t.Fatalf("Load: %v, %v; want the grant", g, err)
		}
		fi, _ := os.Stat(s.FilePath())
		if fi.Mode().Perm() != 0o600 || len(*warned) != 1 || !strings.Contains((*warned)[0], "readable by others (mode 0644): made it 0600") {
			t.Errorf("mode %v, warnings %q; want 0600 and a warning that says so", fi.Mode().Perm(), *warned)
		}
	})
	t.Run("symbolic link", func(t *testing.T) {
		s, _ := fileStore(t)
		elsewhere := filepath.Join(t.TempDir(), "planted.json")
		os.Rename(s.FilePath(), elsewhere)
		if err := os.Symlink(elsewhere, s.FilePath()); err != nil {
			t.Fatal(err)
		}
		if g, err := s.Load(context.Background(), key); err == nil || g != nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Load through a link: %v, %v; want a refusal naming the link", g, err)
		}
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("giving a file to another user needs root")
		}
		s, _ := fileStore(t)
		if err := os.Chown(s.FilePath(), 4242, 4242); err != nil {
			t.Fatal(err)
		}
		if g, err := s.Load(context.Background(), key); err == nil || g != nil || !strings.Contains(err.Error(), "belongs to another user (uid 4242") {
			t.Errorf("Load of another user's file: %v, %v; want a refusal naming the owner", g, err)
		}
	})
}

// The fallback file is read as a named file is: a FIFO planted in its
// place is refused at once (an open of it would wait for a writer), and a
// file over the cap is refused, not cut short and then called damaged.
func TestGrantFileKind(t *testing.T) {
	t.Run("FIFO", func(t *testing.T) {
		s, _ := fileStore(t)
		os.Remove(s.FilePath())
		if err := syscall.Mkfifo(s.FilePath(), 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		if g, err := s.Load(context.Background(), key); err == nil || g != nil || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a regular file") {
			t.Errorf("Load of a FIFO: %v, %v; want a refusal naming it", g, err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		s, _ := fileStore(t)
		if err := os.Truncate(s.FilePath(), maxFileBytes+1); err != nil {
			t.Fatal(err)
		}
		if g, err := s.Load(context.Background(), key); err == nil || g != nil || !strings.Contains(err.Error(), "is larger than 16 MiB") {
			t.Errorf("Load of an oversized file: %v, %v; want a refusal naming the cap", g, err)
		}
	})
}

// A write killed between its temporary file and the rename leaves tokens
// in a stray file: the next opening of the store removes it, and keeps
// the grants.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".oauth-123456.tmp")
	if err := os.WriteFile(stale, []byte(`{"me at x":{"AccessToken":"leaked"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "notes.tmp")
	if err := os.WriteFile(keep, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(dir, &Options{File: true})
	if err := s.Save(context.Background(), &hostcore.Grant{ID: "g1", Resource: key.Resource, Account: key.Account}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the leftover temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file that is not the store's was removed: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, tempPattern))
	if g, err := Open(dir, &Options{File: true}).Load(context.Background(), key); err != nil || g == nil || len(left) != 0 {
		t.Errorf("after the sweep: %v, %v, temporaries %q; want the grant and none", g, err, left)
	}
}

// LockGrant excludes every other holder, a second opening in the same
// process included, until released; a wait for it ends with its context.
func TestLockGrant(t *testing.T) {
	dir := t.TempDir()
	a, b := Open(dir, nil), Open(dir, nil)
	unlock, err := a.LockGrant(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := b.LockGrant(ctx, key); err == nil {
		t.Fatal("a second holder got the lock while the first held it")
	}
	other, err := b.LockGrant(context.Background(), hostcore.GrantKey{Resource: key.Resource, Account: "you"})
	if err != nil {
		t.Fatalf("another grant's lock: %v", err)
	}
	other()
	unlock()
	again, err := b.LockGrant(context.Background(), key)
	if err != nil {
		t.Fatalf("the lock after its release: %v", err)
	}
	again()
}
