package secretstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/attache/attache/hostcore"
)

// LockGrant implements hostcore.GrantLocker: an exclusive flock on a lock
// file of the grant's own in the config directory, which every process
// that shares the grants (the app, each attachectl run) opens. flock locks
// an open file, so two openings in one process exclude each other too.
// The lock goes with the process if it dies.
func (s *Store) LockGrant(ctx context.Context, k hostcore.GrantKey) (func(), error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(user(k)))
	path := filepath.Join(s.dir, ".oauth-refresh-"+hex.EncodeToString(sum[:8])+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the refresh lock: %w", err)
	}
	got := make(chan error, 1)
	go func() { got <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		return func() { f.Close() }, nil // closing the file releases the lock
	case <-ctx.Done():
		go func() { <-got; f.Close() }() // a lock taken too late is let go at once
		return nil, ctx.Err()
	}
}

var _ hostcore.GrantLocker = (*Store)(nil)
