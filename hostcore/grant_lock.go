package hostcore

import (
	"context"
	"fmt"
	"sync"
)

// One refresh at a time, across processes. A server that rotates refresh
// tokens (as OAuth 2.1 asks of public clients, and as threengram does)
// treats a spent refresh token presented again as a replay and revokes the
// whole grant. Every process that shares a grant (the app, each attachectl
// run) would refresh with the refresh token it read at start, so two of
// them refreshing at once sign the account out. So a refresh runs under a
// lock that every process holding the grant shares (the TokenStore's, when
// it is a GrantLocker; a file lock in secretstore), and reads the stored
// grant again first: another process may have refreshed it already, and
// then its token is used instead.

// GrantLocker is a TokenStore that can hold a grant's lock across
// processes.
type GrantLocker interface {
	// LockGrant waits until it holds key's lock, or ctx ends, and returns
	// the function that releases it. The lock excludes every other holder,
	// in this process and in others.
	LockGrant(ctx context.Context, key GrantKey) (unlock func(), err error)
}

// keyedLocks are the host's own locks by grant key, so that the
// connections of one process queue in memory before the store's lock.
type keyedLocks struct {
	mu    sync.Mutex
	locks map[GrantKey]chan struct{}
}

// lock waits for key's lock, or for ctx.
func (l *keyedLocks) lock(ctx context.Context, key GrantKey) (func(), error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[GrantKey]chan struct{}{}
	}
	ch, ok := l.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		l.locks[key] = ch
	}
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// lockGrant holds key's lock in this process, then the store's.
func (h *Host) lockGrant(ctx context.Context, key GrantKey) (func(), error) {
	unlock, err := h.grantLocks.lock(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("waiting for another refresh of the sign-in: %w", err)
	}
	locker, ok := h.tokens().(GrantLocker)
	if !ok {
		return unlock, nil
	}
	unlockStore, err := locker.LockGrant(ctx, key)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("waiting for another process's refresh of the sign-in: %w", err)
	}
	return func() { unlockStore(); unlock() }, nil
}

// tokenWork is the context of a refresh, which the token source's
// interface does not give: bounded like a request, and cut short when the
// host is out of time.
func (h *Host) tokenWork() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(h.oauthContext(), h.opts.RequestTimeout)
	stop := context.AfterFunc(h.hurry, cancel)
	return ctx, func() { stop(); cancel() }
}

// deleteGrantIf deletes key's stored grant under its lock, if it is still
// the grant id: a grant another process has since replaced (a new sign-in)
// stays.
func (h *Host) deleteGrantIf(ctx context.Context, key GrantKey, id string) error {
	unlock, err := h.lockGrant(ctx, key)
	if err != nil {
		return err
	}
	defer unlock()
	g, err := h.tokens().Load(ctx, key)
	if err != nil || g == nil || g.ID != id {
		return err
	}
	return h.tokens().Delete(ctx, key)
}
