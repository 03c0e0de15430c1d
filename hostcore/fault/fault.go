// Package fault is the host's vocabulary of failure: an Error carries a
// Kind a person can act on (not found, unauthorized, transport...), a
// message safe to show, and the detail for the log and the inspector. It
// sits under hostcore and the packages beside it (the config, the model
// loop, the model providers, the screens and commands), so that they all
// speak the same kinds (fault.Error, fault.KindUsage...); hostcore
// classifies go-sdk's failures into them.
package fault

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Kind says what went wrong, in terms a person can act on. Every error the
// host shows carries one.
type Kind string

// The kinds of error, matchable with errors.Is against the sentinels below.
const (
	KindNotFound        Kind = "not found"
	KindInvalidParams   Kind = "invalid input"
	KindServerFault     Kind = "server fault"
	KindVersionMismatch Kind = "version mismatch"
	KindUnauthorized    Kind = "unauthorized"
	KindForbidden       Kind = "forbidden"
	KindTimeout         Kind = "timeout"
	KindCanceled        Kind = "canceled"
	KindTransport       Kind = "transport"
	KindProtocol        Kind = "protocol"
	KindUsage           Kind = "usage"
	// KindDiskFull is a write that found no room on the disk of the data
	// directory (or a store opened read-only because of it).
	KindDiskFull Kind = "disk full"
	// KindNotApproved is a tool call the consent gate did not approve.
	KindNotApproved Kind = "not approved"
)

// Sentinels for errors.Is: errors.Is(err, fault.ErrNotFound) is true for
// every *Error of that kind.
var (
	ErrNotFound        = &Error{kind: KindNotFound}
	ErrInvalidParams   = &Error{kind: KindInvalidParams}
	ErrServerFault     = &Error{kind: KindServerFault}
	ErrVersionMismatch = &Error{kind: KindVersionMismatch}
	ErrUnauthorized    = &Error{kind: KindUnauthorized}
	ErrForbidden       = &Error{kind: KindForbidden}
	ErrTimeout         = &Error{kind: KindTimeout}
	ErrCanceled        = &Error{kind: KindCanceled}
	ErrTransport       = &Error{kind: KindTransport}
	ErrProtocol        = &Error{kind: KindProtocol}
	ErrUsage           = &Error{kind: KindUsage}
	ErrDiskFull        = &Error{kind: KindDiskFull}
	ErrNotApproved     = &Error{kind: KindNotApproved}
)

// Error is a failure the host shows to a person: a kind, a message safe to
// show, and the detail (the cause) for the log and the inspector.
type Error struct {
	kind Kind
	// Code is the JSON-RPC error code, when the server sent one.
	Code int64
	// HTTPStatus is the HTTP status, when one explains the failure.
	HTTPStatus int
	// URI is the resource concerned, if any.
	URI string
	// Next is what to do next, when it is more exact than the kind's
	// (see Hint): "Sign in to read this".
	Next   string
	msg    string
	err    error
	stderr []string
}

// Kind returns the error's kind.
func (e *Error) Kind() Kind { return e.kind }

// KindName returns the error's kind in words: it makes *Error a
// pack.KindedError, whose kind an unreadable item's reason names.
func (e *Error) KindName() string { return string(e.kind) }

// Message returns the sentence to show a person; it never contains a secret.
func (e *Error) Message() string { return e.msg }

// Error returns the message and, after a colon, the detail.
func (e *Error) Error() string {
	if e.err == nil {
		return e.msg
	}
	return e.msg + ": " + e.err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.err }

// Stderr returns the last lines (at most 20, oldest first) that a stdio
// server wrote to stderr before a failure to connect to it, or before its
// stdout broke the transport's rules; nil for other errors. Like the
// detail, they are for the inspector and for whoever debugs the server.
func (e *Error) Stderr() []string { return e.stderr }

// Is reports whether target is the sentinel of e's kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.msg == "" && t.err == nil && t.kind == e.kind
}

// Hint says what a person can do next about the error: Next, when it is
// set, else what helps with errors of its kind.
func (e *Error) Hint() string {
	if e.Next != "" {
		return e.Next
	}
	return hints[e.kind]
}

var hints = map[Kind]string{
	KindNotFound:        "Check the URI or id; on a multi-tenant server another account's resource also looks missing.",
	KindInvalidParams:   "Check the values you entered; the server refused them.",
	KindServerFault:     "The server failed; try again later or look at the server's log.",
	KindVersionMismatch: "The server speaks another protocol version; update the server or the host.",
	KindUnauthorized:    "Sign in again or check the account's credentials.",
	KindForbidden:       "This account is not allowed to do that; use another account or ask for more scopes.",
	KindTimeout:         "The server did not answer in time; try again or raise the timeout.",
	KindCanceled:        "The request was canceled.",
	KindTransport:       "The connection to the server failed; check that it runs and is reachable, then retry.",
	KindProtocol:        "The server sent a reply the protocol does not allow; report it to the server's authors.",
	KindUsage:           "Check the command or the configuration.",
	KindDiskFull:        "Free some space on the disk that holds the data directory, then try again; cached bodies can still be read meanwhile.",
	KindNotApproved:     "Approve the call (answer the prompt, or choose --tools ask or auto; for attachectl call of a destructive tool, --yes).",
}

// New returns an *Error of kind whose message, safe to show, is format
// with args, and whose detail is cause (nil for none).
func New(kind Kind, cause error, format string, args ...any) *Error {
	return &Error{kind: kind, msg: fmt.Sprintf(format, args...), err: cause}
}

// WithCause returns a copy of e whose detail is cause.
func (e *Error) WithCause(cause error) *Error {
	cp := *e
	cp.err = cause
	return &cp
}

// WithStderr returns a copy of e that carries lines, the tail of a stdio
// server's stderr (see Stderr).
func (e *Error) WithStderr(lines []string) *Error {
	cp := *e
	cp.stderr = lines
	return &cp
}

// Redacted returns a copy of e whose message and stderr lines went through
// text, and whose cause went through cause (when it has one): for hiding
// secrets while keeping the kind.
func (e *Error) Redacted(text func(string) string, cause func(error) error) *Error {
	cp := *e
	if cp.err != nil {
		cp.err = cause(cp.err)
	}
	cp.msg = text(cp.msg)
	if cp.stderr != nil {
		cp.stderr = make([]string, len(e.stderr))
		for i, l := range e.stderr {
			cp.stderr[i] = text(l)
		}
	}
	return &cp
}

// Message returns the sentence of err that is safe to show a person: an
// *Error's message, else err's own text.
func Message(err error) string {
	var fe *Error
	if errors.As(err, &fe) && fe.Message() != "" {
		return fe.Message()
	}
	return err.Error()
}

// Clip bounds a server-supplied text shown to a person: it cuts s to at
// most 200 bytes, on a rune boundary, marking the cut.
func Clip(s string) string {
	n := 200
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
