package hostcore

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/wire"
)

// A test (or an embedder) can hand the host the transport of a server
// instead of letting it start the server's command or dial its URL:
// HostOptions.Transport. go-sdk's own tests connect a real client and a
// real server through mcp.NewInMemoryTransports (newline-delimited JSON-RPC
// over a net.Pipe), and so can the host's, through a Dialer of such a
// stream:
// the session, the cache, subscriptions, the consent gate and everything
// above them run as they do over stdio, with no process started. What is
// particular to a transport (a stdio process, its stderr and signals; the
// HTTP round tripper, its headers and OAuth) is then not in play, which is
// why the tests of those still start processes and listen on loopback.

// TransportInjected is the Handshake.Transport of a connection made over a
// transport from HostOptions.Transport.
const TransportInjected = "injected"

// TransportFactory returns the Dialer of one connect to sc as account, or
// nil to leave the server to its command or URL. It is called for each
// connect (a reconnect gets a new transport), from any goroutine.
type TransportFactory func(sc config.ServerConfig, account config.Account) Dialer

// A Dialer connects the host to a server it does not start: Dial returns
// the host's end of a byte stream to a new session of the server, which
// carries newline-delimited JSON-RPC as a stdio server's stdin and stdout
// do (a net.Pipe whose other end a go-sdk server serves, as
// mcp.NewInMemoryTransports makes). The host owns the stream: it closes
// it when the session ends. Dial is called once per connect.
type Dialer interface {
	Dial(ctx context.Context) (io.ReadWriteCloser, error)
}

// injected returns the factory's transport for c, tapped, or nil.
func (c *Conn) injected() mcp.Transport {
	f := c.host.opts.Transport
	if f == nil {
		return nil
	}
	d := f(c.Server, c.Account)
	if d == nil {
		return nil
	}
	return &tappedTransport{inner: dialerTransport{d}, tap: c.tap}
}

// dialerTransport speaks MCP over the stream a Dialer returns, as go-sdk's
// in-memory transports do.
type dialerTransport struct{ d Dialer }

func (t dialerTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	rwc, err := t.d.Dial(ctx)
	if err != nil {
		return nil, err
	}
	return (&mcp.IOTransport{Reader: rwc, Writer: writeEnd{rwc}}).Connect(ctx)
}

// writeEnd is the writing half of a stream whose reading half closes it:
// the stream is closed once.
type writeEnd struct{ io.Writer }

func (writeEnd) Close() error { return nil }

// tappedTransport records every message of an injected transport in the
// connection's tap, as JSON-RPC encodes it. Unlike stdio and HTTP, an
// injected transport has no bytes of its own to tap, so the tap wraps its
// connection; that is safe here because an injected transport is an
// in-process one (go-sdk's HTTP client is the one that needs its
// connection unwrapped).
type tappedTransport struct {
	inner mcp.Transport
	tap   *wire.Tap
}

// Connect connects the inner transport.
func (t *tappedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tappedConn{Connection: conn, tap: t.tap}, nil
}

type tappedConn struct {
	mcp.Connection
	tap *wire.Tap
}

func (c *tappedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.note(wire.Received, m)
	}
	return m, err
}

func (c *tappedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.note(wire.Sent, m) // before sending, so that a fast reply is never recorded before its request
	return c.Connection.Write(ctx, m)
}

func (c *tappedConn) note(dir wire.Direction, m jsonrpc.Message) {
	if b, err := jsonrpc.EncodeMessage(m); err == nil {
		c.tap.Record(dir, b)
	}
}
