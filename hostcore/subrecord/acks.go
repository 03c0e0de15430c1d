package subrecord

import (
	"slices"
	"sync"
)

// AckWaiters are the Subscribes waiting for a 2026-07-28 acknowledgement,
// by URI (hostcore's Conn.Subscribe waits on them). The zero value is
// usable; it is safe for concurrent use.
type AckWaiters struct {
	mu sync.Mutex
	by map[string][]chan struct{}
}

// Await returns a channel closed when an acknowledgement names uri, and the
// function that stops waiting.
func (w *AckWaiters) Await(uri string) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	w.mu.Lock()
	if w.by == nil {
		w.by = map[string][]chan struct{}{}
	}
	w.by[uri] = append(w.by[uri], ch)
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.by[uri] = slices.DeleteFunc(w.by[uri], func(x chan struct{}) bool { return x == ch })
		if len(w.by[uri]) == 0 {
			delete(w.by, uri)
		}
	}
}

// Acknowledged wakes the waiters of each uri.
func (w *AckWaiters) Acknowledged(uris []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, uri := range uris {
		for _, ch := range w.by[uri] {
			close(ch)
		}
		delete(w.by, uri)
	}
}
