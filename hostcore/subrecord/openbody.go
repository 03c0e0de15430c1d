package subrecord

import (
	"slices"
	"time"
)

// OpenBody is a body a screen shows (the inspector's read), as of the read
// that fetched it. A read is a snapshot: when the server says the resource
// changed (notifications/resources/updated, on any subscription of it),
// the body turns stale, and the screen offers to read it again and to show
// what changed. The Subscriptions view says which subscriptions have a
// body open, and whether it is stale. Safe for concurrent use.
type OpenBody struct {
	s   *Record
	key subKey
	// guarded by s.mu:
	stale  bool
	missed int       // updates since the body was read
	last   time.Time // the last update's time
	closed bool
}

// OpenState is what an open body knows of its freshness.
type OpenState struct {
	// Stale is set when the server said the resource changed after the
	// body was read; Updates counts those notifications, and LastUpdate is
	// the time of the last.
	Stale      bool
	Updates    int
	LastUpdate time.Time
}

// Open records that a screen shows a body of uri, read from c just now.
// Close it when the screen shows something else.
func (s *Record) Open(c Conn, uri string) *OpenBody {
	o := &OpenBody{s: s, key: subKey{c, uri}}
	s.mu.Lock()
	s.opens[o.key] = append(s.opens[o.key], o)
	s.mu.Unlock()
	s.changed()
	return o
}

// State returns what the body knows of its freshness.
func (o *OpenBody) State() OpenState {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	return OpenState{Stale: o.stale, Updates: o.missed, LastUpdate: o.last}
}

// Current records that the screen shows the server's newest body again
// (it read it anew).
func (o *OpenBody) Current() {
	o.s.mu.Lock()
	o.stale, o.missed = false, 0
	o.s.mu.Unlock()
	o.s.changed()
}

// Close records that the screen no longer shows the body. A second Close
// does nothing.
func (o *OpenBody) Close() {
	s := o.s
	s.mu.Lock()
	if o.closed {
		s.mu.Unlock()
		return
	}
	o.closed = true
	s.opens[o.key] = slices.DeleteFunc(s.opens[o.key], func(x *OpenBody) bool { return x == o })
	if len(s.opens[o.key]) == 0 {
		delete(s.opens, o.key)
	}
	s.mu.Unlock()
	s.changed()
}
