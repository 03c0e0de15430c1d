// Package hooks is a list of registered functions told of an event, in
// registration order: the observers of a connection, a host, a sign-in
// board, the consent gate and the subscriptions' record.
package hooks

import (
	"slices"
	"sync"
)

// List is a list of registered functions; its zero value is empty and
// ready. It is safe for concurrent use.
type List[F any] struct {
	mu   sync.Mutex
	next int
	fs   []entry[F]
}

type entry[F any] struct {
	id int
	f  F
}

// Add registers f and returns the function that unregisters it.
func (h *List[F]) Add(f F) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	id := h.next
	h.fs = append(h.fs, entry[F]{id, f})
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.fs = slices.DeleteFunc(h.fs, func(x entry[F]) bool { return x.id == id })
	}
}

// All returns the registered functions, to call without the lock held.
func (h *List[F]) All() []F {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]F, len(h.fs))
	for i, x := range h.fs {
		out[i] = x.f
	}
	return out
}
