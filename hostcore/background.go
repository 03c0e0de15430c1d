package hostcore

import (
	"context"
	"sync"
)

// The goroutines a Host starts are its own: a session's watcher, the
// resubscription and OnConnect hooks after a reconnect, the close of a
// session dropped after a transport failure, a stdio server's process and
// the question put to the person for an input. Each is counted in the
// host's background, and so is every connect in flight (it may start a
// process), so that Shutdown returns only once all of them have ended:
// nothing the host started outlives it.

// background counts the work in flight that Shutdown waits for. Unlike a
// sync.WaitGroup, it may be added to while someone waits: work that
// starts during Shutdown (a connect that began before it) is waited for
// too. It is safe for concurrent use.
type background struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0; a new one when it rises
}

// add counts one piece of work.
func (b *background) add() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		b.idle = make(chan struct{})
	}
	b.n++
}

// done uncounts one piece of work.
func (b *background) done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n--
	if b.n == 0 {
		close(b.idle)
	}
}

// goCounted runs f on a goroutine, counted.
func (b *background) goCounted(f func()) {
	b.add()
	go func() {
		defer b.done()
		f()
	}()
}

// wait returns once nothing is counted, or when ctx is done.
func (b *background) wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		if b.n == 0 {
			b.mu.Unlock()
			return nil
		}
		idle := b.idle
		b.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
