package hostcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/wire"
)

// The host's errors are package fault's (see there): its callers speak of
// fault.Error and fault.KindUsage. Package fault sits under hostcore, so
// that the config, the model loop and the providers share the kinds.

var _ pack.KindedError = (*fault.Error)(nil)

// newError returns an *Error of kind with a message and a cause.
func newError(kind fault.Kind, cause error, format string, args ...any) *fault.Error {
	return fault.New(kind, cause, format, args...)
}

// protocolError is a reply the protocol does not allow.
func protocolError(uri, format string, args ...any) *fault.Error {
	e := newError(fault.KindProtocol, nil, format, args...)
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
	var he *fault.Error
	if errors.As(err, &he) {
		return err
	}
	cause := err
	if http.notMCP != "" || notAnEndpoint(http.code, http.failType) {
		cause = fmt.Errorf("%w: %w", ErrNotAnEndpoint, err)
	}
	e := classifyKind(err, op, uri, breach, http, limit).WithCause(cause)
	e.URI = uri
	if http.code >= 400 {
		e.HTTPStatus = http.code
	}
	return e
}

func classifyKind(err error, op, uri string, breach error, http httpOutcome, limit int64) *fault.Error {
	var rpc *jsonrpc.Error
	var junk *wire.NotJSONError
	status := http.code
	switch {
	case errors.As(breach, &junk) && junk.Stdout:
		return NewError(fault.KindProtocol, fmt.Sprintf("%s: the server wrote %q on stdout, which is not JSON-RPC (is the command an MCP server over stdio?)", op, junk.Start))
	case errors.As(breach, &junk):
		return NewError(fault.KindProtocol, fmt.Sprintf("%s: the server answered %q, which is not JSON-RPC", op, junk.Start))
	case errors.Is(breach, wire.ErrTooLarge), http.tooLarge:
		return NewError(fault.KindProtocol, op+": the reply is over the size limit of "+pack.Quantity(int(limit), "byte"))
	case status == 401 && errors.Is(err, context.Canceled):
		// The 401 started a sign-in, which was then canceled.
		return NewError(fault.KindCanceled, op+": the sign-in was canceled")
	case status == 401:
		return NewError(fault.KindUnauthorized, op+": the server refused the credentials (HTTP 401)")
	case status == 403:
		return NewError(fault.KindForbidden, op+": the server forbids this account (HTTP 403)")
	case errors.As(err, &rpc):
		e := classifyRPC(rpc, op, uri)
		if byStatus := classifyHTTP(op, http); e.Kind() == fault.KindTransport && byStatus != nil {
			return byStatus // go-sdk's "rejected by transport": the status says why
		}
		return e
	case errors.Is(err, mcp.ErrSessionMissing):
		return NewError(fault.KindTransport, op+": the server ended the session")
	case classifyHTTP(op, http) != nil:
		return classifyHTTP(op, http)
	case errors.Is(err, context.DeadlineExceeded):
		return NewError(fault.KindTimeout, op+": the server did not answer in time")
	case errors.Is(err, context.Canceled):
		return NewError(fault.KindCanceled, op+": canceled")
	case isTransport(err):
		return NewError(fault.KindTransport, op+": the connection to the server failed")
	default:
		return NewError(fault.KindProtocol, op+": the server's reply could not be understood")
	}
}

// classifyHTTP classifies a failure by what its HTTP requests met, or
// returns nil when that says nothing. A URL that is not an MCP endpoint is
// a transport failure that names it: a wrong URL is never blamed on the
// server's authors.
func classifyHTTP(op string, http httpOutcome) *fault.Error {
	switch status := http.code; {
	case http.notMCP != "":
		return newError(fault.KindTransport, ErrNotAnEndpoint, "%s: %s answered with %s, which is not MCP; check the URL", op, orTheURL(http.url), http.notMCP)
	case notAnEndpoint(status, http.failType):
		return newError(fault.KindTransport, ErrNotAnEndpoint, "%s: no MCP endpoint at %s (HTTP %d); check the URL", op, orTheURL(http.url), status)
	case status == 429:
		msg := op + ": the server is busy (HTTP 429 Too Many Requests)"
		if http.retryIn > 0 {
			msg += fmt.Sprintf(" and asks to wait %s, longer than the host waits", http.retryIn)
		}
		return NewError(fault.KindServerFault, msg)
	case status >= 500:
		return NewError(fault.KindServerFault, fmt.Sprintf("%s: the server failed (HTTP %d)", op, status))
	}
	return nil
}

// ErrNotAnEndpoint is the cause of a transport error whose URL answered as
// no MCP endpoint does (errors.Is): nothing there to sign in to, so the
// screens offer no sign-in for it.
var ErrNotAnEndpoint = errors.New("the URL is not an MCP endpoint")

// notAnEndpoint reports whether a failing status with a body of media type
// mt says the URL is no MCP endpoint: what a web server that is not one
// answers a JSON-RPC POST (404, 405; or 400, 406, 415, 501 without a
// JSON-RPC body, such as an HTML error page). A 400 with a JSON body is
// the server's own answer, and a 5xx other than 501 is a server fault.
func notAnEndpoint(status int, mt string) bool {
	switch status {
	case 404, 405:
		return true
	case 400, 406, 415, 501:
		return mt != "application/json" && mt != "text/event-stream"
	}
	return false
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
func classifyRPC(rpc *jsonrpc.Error, op, uri string) *fault.Error {
	var kind fault.Kind
	var msg string
	switch {
	case rpc.Code == codeResourceNotFound,
		rpc.Code == codeInvalidParams && uri != "":
		kind, msg = fault.KindNotFound, op+": no such resource"
		if saysMore(rpc.Message, uri) {
			// Not the bare "Resource not found" of go-sdk and the SDKs: keep
			// the server's reason, which may say why the uri is refused, for
			// -32002 as for -32602.
			msg += " (the server says: " + clip(rpc.Message) + ")"
		}
	case rpc.Code == codeInvalidParams:
		kind, msg = fault.KindInvalidParams, op+": the server refused the parameters: "+clip(rpc.Message)
	case rpc.Code == codeUnsupportedVesion:
		kind, msg = fault.KindVersionMismatch, op+": the server does not support this protocol version"
	case rpc.Code == codeParseError, rpc.Code == codeInvalidRequest:
		kind, msg = fault.KindProtocol, op+": the server could not parse the request: "+clip(rpc.Message)
	case rpc.Code == codeRejected, rpc.Code == codeClosing, rpc.Code == codeClosed:
		kind, msg = fault.KindTransport, op+": the connection to the server failed"
	case rpc.Code == codeMethodNotFound:
		kind, msg = fault.KindServerFault, op+": the server does not implement this method"
	default:
		kind, msg = fault.KindServerFault, fmt.Sprintf("%s: the server failed (%d %s)", op, rpc.Code, clip(rpc.Message))
	}
	e := NewError(kind, msg)
	e.Code = rpc.Code
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

// clip bounds a server-supplied message shown to a person (fault.Clip).
func clip(s string) string { return fault.Clip(s) }

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

// NewUsageError returns an error of kind usage with msg, for front ends that
// refuse a command line or a form.
func NewUsageError(msg string) *fault.Error { return NewError(fault.KindUsage, msg) }

// NewError returns an error of kind with msg, for front ends and adapters
// that report a failure of their own in the host's terms.
func NewError(kind fault.Kind, msg string) *fault.Error { return fault.New(kind, nil, "%s", msg) }

// NewDiskFullError is the error of a write that found the disk full: op
// says what was being written ("purging the cache"), and cause, the
// store's own error, is the detail.
func NewDiskFullError(op string, cause error) *fault.Error {
	return newError(fault.KindDiskFull, cause, "%s: the disk is full", op)
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
	switch {
	case out.refusal != nil:
		return out.refusal // the host stopped on purpose; what go-sdk tried after is beside the point
	case out.scope != "":
		e := newError(fault.KindForbidden, err, "%s: %s still refuses this account for want of scope %s (HTTP 403 insufficient_scope), after signing in for it",
			op, c.Server.Name, clip(out.scope))
		e.HTTPStatus, e.URI = http.StatusForbidden, uri
		e.Next = "The authorization server did not grant what the server asks for; sign in again, or ask whoever runs them for that scope."
		return e
	}
	if breach == nil {
		breach = out.breach
	}
	var he *fault.Error
	if errors.As(err, &he) && he.Unwrap() != nil && (breach != nil || out.tooLarge || out.notMCP != "" ||
		notAnEndpoint(out.code, out.failType) || out.code == 429) {
		err = he.Unwrap()
	}
	err = classifyRecorded(err, op, uri, breach, out, c.host.opts.MaxBodyBytes)
	if missing := p.missingScript(); connecting && missing != "" && !errors.Is(err, fault.ErrUsage) {
		// The connection's failure is the missing file's consequence: the
		// detail keeps its words, the sentence names the file alone.
		err = newError(fault.KindUsage, errors.New(err.Error()), "the server's command names %s, which does not exist", missing)
	}
	if p != nil && (connecting || breach != nil) && errors.As(err, &he) && he.Stderr() == nil {
		err = he.WithStderr(p.stderr.Lines())
	}
	return err
}
