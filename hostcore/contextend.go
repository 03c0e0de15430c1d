package hostcore

import "github.com/attache/attache/hostcore/fault"

// When an authorization context ends for good (an account is logged out or
// signed out, a server is removed, or its entry changes what a server
// receives), the host drops what it kept of it: its connections, its
// private cache entries, its wire record. A screen may still show a body
// read in that context; the host tells it, through OnContextEnded, so that
// it can drop the body too. The host is the one place that knows every
// way a context ends, so no screen has to guess it from the buttons.

// EndReason says why an authorization context ended.
type EndReason string

// The reasons a context ends.
const (
	// EndLoggedOut: the account was logged out (Sign out, attachectl logout).
	EndLoggedOut EndReason = "logged out"
	// EndRemoved: the server was removed from the config.
	EndRemoved EndReason = "removed"
	// EndChanged: the server's entry changed what the server receives
	// from the account (its command, URL or credentials).
	EndChanged EndReason = "changed"
)

// ContextEnd says which authorization context ended, and why.
type ContextEnd struct {
	// Server is the configured name of the server.
	Server string
	// Account is the account whose context ended; "" means every account
	// of the server.
	Account string
	Reason  EndReason
}

// Covers reports whether a body read from server as account belongs to the
// context that ended.
func (e ContextEnd) Covers(server, account string) bool {
	return e.Server == server && (e.Account == "" || e.Account == account)
}

// String says what ended, as a person reads it.
func (e ContextEnd) String() string {
	if e.Account == "" {
		return e.Server + " was " + string(e.Reason)
	}
	return e.Server + " as " + e.Account + " was " + string(e.Reason)
}

// OnContextEnded registers f to run after each end of an authorization
// context, once the host has closed its connections and purged its
// private entries; it returns the function that unregisters f. f runs on
// the goroutine that ended the context (a Logout's, a RemoveServer's), so
// a screen hands it to its own thread.
func (h *Host) OnContextEnded(f func(ContextEnd)) (unregister func()) { return h.ended.Add(f) }

// contextEnded tells every observer that e ended.
func (h *Host) contextEnded(e ContextEnd) {
	for _, f := range h.ended.All() {
		f(e)
	}
}

// Err is why a body of the context that ended is no longer shown, for an
// item that held one: read again, in a context that may see it.
func (e ContextEnd) Err() error {
	kind := fault.KindUnauthorized
	if e.Reason == EndRemoved {
		kind = fault.KindNotFound
	}
	return newError(kind, nil, "%s: its body is no longer shown", e)
}
