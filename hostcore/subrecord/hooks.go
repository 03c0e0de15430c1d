package subrecord

import (
	"slices"
	"sync"
)

// hooks is the list of functions told of each change, in registration
// order.
type hooks struct {
	mu   sync.Mutex
	next int
	fs   []hook
}

type hook struct {
	id int
	f  func()
}

// add registers f and returns the function that unregisters it.
func (h *hooks) add(f func()) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	id := h.next
	h.fs = append(h.fs, hook{id, f})
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.fs = slices.DeleteFunc(h.fs, func(x hook) bool { return x.id == id })
	}
}

// list returns the registered functions, to call without the lock held.
func (h *hooks) list() []func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]func(), len(h.fs))
	for i, x := range h.fs {
		out[i] = x.f
	}
	return out
}
