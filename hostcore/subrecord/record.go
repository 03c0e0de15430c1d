// Package subrecord is the host's record of its resource subscriptions,
// for people to see and act on: per connection and URI, when the
// subscription began, how many updates the server sent, which bodies
// screens have open and whether they are stale. It knows a connection
// only as a Conn (its counted subscriptions, how it subscribes), so that
// it sits under hostcore, which tells it of every count and update.
package subrecord

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/hooks"
)

// Conn is a connection as the record knows it; hostcore's *Conn is one.
// It must be comparable (a pointer): the record is keyed by it.
type Conn interface {
	fmt.Stringer
	// Entry returns the server's configured entry and the account.
	Entry() (config.ServerConfig, config.Account)
	// Subscribe and Unsubscribe take and give back one borrow of the
	// connection's counted subscription to uri.
	Subscribe(ctx context.Context, uri string) error
	Unsubscribe(ctx context.Context, uri string) error
	// Subscriptions returns the borrowers of each URI subscribed.
	Subscriptions() map[string]int
	// SubscribeMethod names how the session subscribes.
	SubscribeMethod() string
	// Closed reports whether the session is gone.
	Closed() bool
}

// The host's resource subscriptions, for people to see and act on. Every
// subscription belongs to its connection, which counts its borrowers
// (hostcore's Conn.Subscribe): the attachments' Watcher borrows one per watched item,
// and the person borrows one by subscribing from a screen (the inspector,
// the console's resend). Subscriptions records, per connection and URI,
// when the subscription began, how many updates the server sent and when
// the last came, and which bodies screens have open (OpenBody), so that
// every screen tells the same story and follows it through OnChange.
// Unsubscribing gives back the person's borrow only: an attachment's own
// subscription stays, and the server keeps notifying it.

// Subscription is one resource subscription of the host, as the
// Subscriptions view shows it.
type Subscription struct {
	Conn    Conn
	Server  string
	Account string
	URI     string
	// Method is how the session subscribes: resources/subscribe, or
	// subscriptions/listen at 2026-07-28.
	Method string
	// Borrowers is how many hold it (the connection's count): the
	// person's, and one per watched attachment.
	Borrowers int
	// Yours is set when the person subscribed (Record.Subscribe);
	// Unsubscribe gives that borrow back.
	Yours bool
	// Since is when the host first subscribed.
	Since time.Time
	// Updates counts the server's notifications/resources/updated since
	// then; LastUpdate is the time of the last (zero when none came).
	Updates    int
	LastUpdate time.Time
	// Open is set when a screen shows a body of the resource, and Stale
	// when an update came after that body was read.
	Open, Stale bool
}

// Record is the host's record of its resource subscriptions (see above),
// from Host.Subscriptions. It is safe for concurrent use; OnChange hooks
// are called without its lock, from any goroutine.
type Record struct {
	now func() time.Time

	mu      sync.Mutex
	entries map[subKey]*subEntry
	opens   map[subKey][]*OpenBody
	hooks   hooks.List[func()]
}

type subKey struct {
	c   Conn
	uri string
}

// subEntry is what is recorded of one subscription; guarded by
// Record.mu.
type subEntry struct {
	since   time.Time
	updates int
	last    time.Time
	yours   bool // the person's borrow is counted by the connection
	asking  bool // the person's Subscribe is in flight
}

// New returns an empty record, stamped by now (nil means time.Now).
func New(now func() time.Time) *Record {
	if now == nil {
		now = time.Now
	}
	return &Record{now: now, entries: map[subKey]*subEntry{}, opens: map[subKey][]*OpenBody{}}
}

// OnChange registers f to run after any subscription, update or open
// body changes, and returns the function that unregisters it.
func (s *Record) OnChange(f func()) (unregister func()) { return s.hooks.Add(f) }

func (s *Record) changed() {
	for _, f := range s.hooks.All() {
		f()
	}
}

// Subscribe is the person's subscription to uri on c: one borrow of the
// connection's counted subscription, whoever else holds one. Asking again
// while it holds does nothing. A server that does not declare
// resources.subscribe is not asked (errors.Is ErrNotOffered).
func (s *Record) Subscribe(ctx context.Context, c Conn, uri string) error {
	k := subKey{c, uri}
	s.mu.Lock()
	e := s.entry(k)
	if e.yours || e.asking {
		s.mu.Unlock()
		return nil
	}
	e.asking = true
	s.mu.Unlock()
	err := c.Subscribe(ctx, uri)
	s.mu.Lock()
	e = s.entry(k)
	e.asking, e.yours = false, err == nil
	s.mu.Unlock()
	s.Counted(c, uri)
	return err
}

// Unsubscribe gives back the person's subscription to uri on c. The
// server is told only when no one else holds one (an attachment's watch
// keeps its own). It fails, changing nothing, when the person holds none.
func (s *Record) Unsubscribe(ctx context.Context, c Conn, uri string) error {
	k := subKey{c, uri}
	s.mu.Lock()
	e, ok := s.entries[k]
	if !ok || !e.yours {
		s.mu.Unlock()
		return fault.New(fault.KindUsage, nil, "unsubscribing from %s: you did not subscribe to it on %s (a subscription of the attachments is theirs)", uri, c)
	}
	e.yours = false
	s.mu.Unlock()
	err := c.Unsubscribe(ctx, uri)
	s.Counted(c, uri)
	return err
}

// entry returns k's entry, making it; s.mu is held.
func (s *Record) entry(k subKey) *subEntry {
	e, ok := s.entries[k]
	if !ok {
		e = &subEntry{since: s.now()}
		s.entries[k] = e
	}
	return e
}

// Counted is told that c's count of uri may have changed (hostcore's
// Conn.Subscribe and Unsubscribe tell it): a subscription no one holds any
// more is forgotten, with its updates. A nil record does nothing.
func (s *Record) Counted(c Conn, uri string) {
	if s == nil {
		return
	}
	held := c.Subscriptions()[uri] > 0
	k := subKey{c, uri}
	s.mu.Lock()
	e, ok := s.entries[k]
	switch {
	case held && !ok:
		s.entry(k)
	case !held && ok && !e.asking:
		delete(s.entries, k)
	}
	s.mu.Unlock()
	s.changed()
}

// Updated counts a notifications/resources/updated of uri on c, and
// marks the bodies of it that screens have open as stale.
func (s *Record) Updated(c Conn, uri string) {
	k := subKey{c, uri}
	now := s.now()
	s.mu.Lock()
	if e, ok := s.entries[k]; ok {
		e.updates++
		e.last = now
	}
	for _, o := range s.opens[k] {
		o.stale = true
		o.missed++
		o.last = now
	}
	s.mu.Unlock()
	s.changed()
}

// List returns every subscription of the host's open connections, by
// server, account and URI.
func (s *Record) List() []Subscription {
	s.mu.Lock()
	out := make([]Subscription, 0, len(s.entries))
	for k, e := range s.entries {
		if k.c.Closed() {
			delete(s.entries, k) // logged out or removed: the session and its subscriptions are gone
			continue
		}
		sc, acct := k.c.Entry()
		sub := Subscription{Conn: k.c, Server: sc.Name, Account: acct.Name, URI: k.uri,
			Yours: e.yours, Since: e.since, Updates: e.updates, LastUpdate: e.last}
		for _, o := range s.opens[k] {
			sub.Open, sub.Stale = true, sub.Stale || o.stale
		}
		out = append(out, sub)
	}
	s.mu.Unlock()
	for i := range out {
		out[i].Borrowers = out[i].Conn.Subscriptions()[out[i].URI]
		out[i].Method = out[i].Conn.SubscribeMethod()
	}
	// A subscription the server has not acknowledged yet is no one's.
	out = slices.DeleteFunc(out, func(sub Subscription) bool { return sub.Borrowers == 0 })
	slices.SortFunc(out, func(a, b Subscription) int {
		return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Account, b.Account), cmp.Compare(a.URI, b.URI))
	})
	return out
}

// Find returns the subscription of uri on c, if the host holds one.
func (s *Record) Find(c Conn, uri string) (Subscription, bool) {
	for _, sub := range s.List() {
		if sub.Conn == c && sub.URI == uri {
			return sub, true
		}
	}
	return Subscription{}, false
}
