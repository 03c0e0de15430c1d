package hostcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/pack"
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

// Sentinels for errors.Is: errors.Is(err, hostcore.ErrNotFound) is true for
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
	URI    string
	msg    string
	err    error
	stderr []string
}

// Kind returns the error's kind.
func (e *Error) Kind() Kind { return e.kind }

// KindName returns the error's kind in words: it makes *Error a
// pack.KindedError, whose kind an unreadable item's reason names.
func (e *Error) KindName() string { return string(e.kind) }

var _ pack.KindedError = (*Error)(nil)

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

// Hint says what a person can do next about an error of this kind.
func (e *Error) Hint() string { return hints[e.kind] }

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

// newError returns an *Error of kind with a message and a cause.
func newError(kind Kind, cause error, format string, args ...any) *Error {
	return &Error{kind: kind, msg: fmt.Sprintf(format, args...), err: cause}
}

// protocolError is a reply the protocol does not allow.
func protocolError(uri, format string, args ...any) *Error {
	e := newError(KindProtocol, nil, format, args...)
	e.URI = uri
	return e
}

// JSON-RPC and MCP error codes the host tells apart.
const (
	codeParseError        = -32700
	codeInvalidRequest    = -32600
	codeMethodNotFound    = -32601
	codeInvalidParams     = -32602
	codeInternalError     = -32603
	codeResourceNotFound  = -32002
	codeUnsupportedVesion = -32022
	codeRejected          = -32005 // go-sdk: the transport could not deliver the request
	codeClosing           = -32003 // go-sdk: the connection is closing
	codeClosed            = -32004 // go-sdk: the connection is closed
)

// classify turns an error from go-sdk, the transport or the context into an
// *Error, from typed values alone: errors.Is and errors.As, the JSON-RPC
// code, and the HTTP status of the request itself. It never searches text
// (which holds the URI and the server's own message). op names what was
// being done ("reading X"); uri is the resource a resource request
// concerned, if any; status is the HTTP status of the failed request, if
// any.
func classify(err error, op, uri string, status int) error {
	return classifyRecorded(err, op, uri, nil, httpOutcome{code: status}, 0)
}

// classifyRecorded is classify for a failure the transport recorded facts
// about, which come first: a stdio server's breach of the transport's rules
// (stdout that is not JSON-RPC, a message over the size limit), and what
// the HTTP requests of the call or connect met (see requestStatus). go-sdk
// reports most of these as text only. limit is the host's MaxBodyBytes,
// for the message.
func classifyRecorded(err error, op, uri string, breach error, http httpOutcome, limit int64) error {
	if err == nil {
		return nil
	}
	var he *Error
	if errors.As(err, &he) {
		return err
	}
	e := classifyKind(err, op, uri, breach, http, limit)
	e.URI, e.err = uri, err
	if http.code >= 400 {
		e.HTTPStatus = http.code
	}
	return e
}

func classifyKind(err error, op, uri string, breach error, http httpOutcome, limit int64) *Error {
	var rpc *jsonrpc.Error
	var junk *notJSONError
	status := http.code
	switch {
	case errors.As(breach, &junk) && junk.stdout:
		return &Error{kind: KindProtocol, msg: fmt.Sprintf("%s: the server wrote %q on stdout, which is not JSON-RPC (is the command an MCP server over stdio?)", op, junk.start)}
	case errors.As(breach, &junk):
		return &Error{kind: KindProtocol, msg: fmt.Sprintf("%s: the server answered %q, which is not JSON-RPC", op, junk.start)}
	case errors.Is(breach, errBodyTooLarge), http.tooLarge:
		return &Error{kind: KindProtocol, msg: op + ": the reply is over the size limit of " + pack.Quantity(int(limit), "byte")}
	case status == 401 && errors.Is(err, context.Canceled):
		// The 401 started a sign-in, which was then canceled.
		return &Error{kind: KindCanceled, msg: op + ": the sign-in was canceled"}
	case status == 401:
		return &Error{kind: KindUnauthorized, msg: op + ": the server refused the credentials (HTTP 401)"}
	case status == 403:
		return &Error{kind: KindForbidden, msg: op + ": the server forbids this account (HTTP 403)"}
	case errors.As(err, &rpc):
		e := classifyRPC(rpc, op, uri)
		if byStatus := classifyHTTP(op, http); e.kind == KindTransport && byStatus != nil {
			return byStatus // go-sdk's "rejected by transport": the status says why
		}
		return e
	case errors.Is(err, mcp.ErrSessionMissing):
		return &Error{kind: KindTransport, msg: op + ": the server ended the session"}
	case classifyHTTP(op, http) != nil:
		return classifyHTTP(op, http)
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{kind: KindTimeout, msg: op + ": the server did not answer in time"}
	case errors.Is(err, context.Canceled):
		return &Error{kind: KindCanceled, msg: op + ": canceled"}
	case isTransport(err):
		return &Error{kind: KindTransport, msg: op + ": the connection to the server failed"}
	default:
		return &Error{kind: KindProtocol, msg: op + ": the server's reply could not be understood"}
	}
}

// classifyHTTP classifies a failure by what its HTTP requests met, or
// returns nil when that says nothing. A URL that is not an MCP endpoint is
// a transport failure that names it: a wrong URL is never blamed on the
// server's authors.
func classifyHTTP(op string, http httpOutcome) *Error {
	switch status := http.code; {
	case http.notMCP != "":
		return &Error{kind: KindTransport, msg: fmt.Sprintf("%s: %s answered with %s, which is not MCP; check the URL", op, orTheURL(http.url), http.notMCP)}
	case status == 404 || status == 405:
		return &Error{kind: KindTransport, msg: fmt.Sprintf("%s: no MCP endpoint at %s (HTTP %d); check the URL", op, orTheURL(http.url), status)}
	case status == 429:
		msg := op + ": the server is busy (HTTP 429 Too Many Requests)"
		if http.retryIn > 0 {
			msg += fmt.Sprintf(" and asks to wait %s, longer than the host waits", http.retryIn)
		}
		return &Error{kind: KindServerFault, msg: msg}
	case status >= 500:
		return &Error{kind: KindServerFault, msg: fmt.Sprintf("%s: the server failed (HTTP %d)", op, status)}
	}
	return nil
}

// orTheURL is u, or words for it when it is unknown.
func orTheURL(u string) string {
	if u == "" {
		return "the server's URL"
	}
	return u
}

// classifyRPC classifies a JSON-RPC error by its code. A resource request
// (uri set) has one parameter, the URI, so -32602 there means no such
// resource, as 2026-07-28 and go-sdk spell it; -32002 is the older code.
func classifyRPC(rpc *jsonrpc.Error, op, uri string) *Error {
	e := &Error{Code: rpc.Code}
	switch {
	case rpc.Code == codeResourceNotFound,
		rpc.Code == codeInvalidParams && uri != "":
		e.kind, e.msg = KindNotFound, op+": no such resource"
		if saysMore(rpc.Message, uri) {
			// Not the bare "Resource not found" of go-sdk and the SDKs: keep
			// the server's reason, which may say why the uri is refused, for
			// -32002 as for -32602.
			e.msg += " (the server says: " + clip(rpc.Message) + ")"
		}
	case rpc.Code == codeInvalidParams:
		e.kind, e.msg = KindInvalidParams, op+": the server refused the parameters: "+clip(rpc.Message)
	case rpc.Code == codeUnsupportedVesion:
		e.kind, e.msg = KindVersionMismatch, op+": the server does not support this protocol version"
	case rpc.Code == codeParseError, rpc.Code == codeInvalidRequest:
		e.kind, e.msg = KindProtocol, op+": the server could not parse the request: "+clip(rpc.Message)
	case rpc.Code == codeRejected, rpc.Code == codeClosing, rpc.Code == codeClosed:
		e.kind, e.msg = KindTransport, op+": the connection to the server failed"
	case rpc.Code == codeMethodNotFound:
		e.kind, e.msg = KindServerFault, op+": the server does not implement this method"
	default:
		e.kind, e.msg = KindServerFault, fmt.Sprintf("%s: the server failed (%d %s)", op, rpc.Code, clip(rpc.Message))
	}
	return e
}

// saysMore reports whether a not-found error's message says more than
// "Resource not found" (with or without the uri).
func saysMore(msg, uri string) bool {
	m := msg
	if uri != "" {
		m = strings.ReplaceAll(m, uri, "")
	}
	m = strings.Trim(strings.TrimSpace(m), ":.!'\"` ")
	return m != "" && !strings.EqualFold(m, "resource not found") && !strings.EqualFold(m, "not found")
}

// clip bounds a server-supplied message shown to a person.
// clip cuts s to at most 200 bytes, on a rune boundary, marking the cut.
func clip(s string) string {
	n := 200
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isTransport(err error) bool {
	var netErr net.Error
	var exitErr *exec.ExitError
	var execErr *exec.Error
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, errProcessExited) || errors.Is(err, mcp.ErrSessionMissing) ||
		errors.As(err, &netErr) || errors.As(err, &exitErr) || errors.As(err, &execErr)
}

// errProcessExited marks a stdio server whose process is gone.
var errProcessExited = errors.New("server process exited")

// notJSONError is a server writing something other than JSON-RPC: on its
// stdout (a banner, a log line), which the stdio transport forbids, or in
// an HTTP reply it says is JSON. start is the beginning of what it wrote.
type notJSONError struct {
	start  string
	stdout bool
}

func (e *notJSONError) Error() string {
	if e.stdout {
		return fmt.Sprintf("the server wrote %q on stdout, which is not JSON-RPC", e.start)
	}
	return fmt.Sprintf("the server answered %q, which is not JSON-RPC", e.start)
}

// NewUsageError returns an error of kind usage with msg, for front ends that
// refuse a command line or a form.
func NewUsageError(msg string) *Error { return &Error{kind: KindUsage, msg: msg} }

// NewError returns an error of kind with msg, for front ends and adapters
// that report a failure of their own in the host's terms.
func NewError(kind Kind, msg string) *Error { return &Error{kind: kind, msg: msg} }

// NewDiskFullError is the error of a write that found the disk full: op
// says what was being written ("purging the cache"), and cause, the
// store's own error, is the detail.
func NewDiskFullError(op string, cause error) *Error {
	return newError(KindDiskFull, cause, "%s: the disk is full", op)
}

// explain classifies the failure of a connect or a call from the facts its
// transports recorded in st (see requestStatus) and from err. An err that
// is classified already (the handshake classifies each attempt) is
// classified again from its cause when a recorded fact says more: a stdio
// server's breach of the transport's rules, a reply over the size limit,
// an HTTP answer that is not MCP, the URL of a 404 or 405, a 429. A stdio
// server's failure to connect, and a breach, carry the tail of its stderr.
func (c *Conn) explain(err error, op, uri string, st *requestStatus, connecting bool) error {
	p := st.process()
	if p == nil && !connecting {
		c.mu.Lock()
		p = c.proc
		c.mu.Unlock()
	}
	breach, out := p.breach(), st.outcome()
	if breach == nil {
		breach = out.breach
	}
	var he *Error
	if errors.As(err, &he) && he.err != nil && (breach != nil || out.tooLarge || out.notMCP != "" ||
		out.code == 404 || out.code == 405 || out.code == 429) {
		err = he.err
	}
	err = classifyRecorded(err, op, uri, breach, out, c.host.opts.MaxBodyBytes)
	if missing := missingScript(p.command()); connecting && missing != "" && !errors.Is(err, ErrUsage) {
		err = newError(KindUsage, err, "file not found: %s", missing)
	}
	if p != nil && (connecting || breach != nil) && errors.As(err, &he) && he.stderr == nil {
		cp := *he
		cp.stderr = p.stderr.Lines()
		err = &cp
	}
	return err
}

// messageOf is the message of err that is safe to show.
func messageOf(err error) string {
	var he *Error
	if errors.As(err, &he) && he.Message() != "" {
		return he.Message()
	}
	return err.Error()
}
