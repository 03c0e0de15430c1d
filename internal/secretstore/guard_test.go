package secretstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
