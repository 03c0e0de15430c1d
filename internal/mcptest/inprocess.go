package mcptest

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// In-process transports: a host given one of these (hostcore.HostOptions.
// Transport) talks to a real server with no process started, the way
// go-sdk's own tests connect a client and a server.

// ServerTransport is a transport to srv, in-process: each Connect connects a
// new session of srv through mcp.NewInMemoryTransports, so a host that
// reconnects gets a fresh session, as it would of a restarted server.
// Drop ends the sessions, as a server that dies would.
type ServerTransport struct {
	srv *mcp.Server

	mu       sync.Mutex
	sessions []*mcp.ServerSession
}

// NewServerTransport returns a transport to srv.
func NewServerTransport(srv *mcp.Server) *ServerTransport { return &ServerTransport{srv: srv} }

// Connect connects a new session of the server and returns the client's end.
func (t *ServerTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	client, server := mcp.NewInMemoryTransports()
	ss, err := t.srv.Connect(context.WithoutCancel(ctx), server, nil)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.sessions = append(t.sessions, ss)
	t.mu.Unlock()
	return client.Connect(ctx)
}

// Dial connects a new session of the server and returns the client's end
// of the stream (a hostcore.Dialer): newline-delimited JSON-RPC over a
// net.Pipe, as mcp.NewInMemoryTransports connects.
func (t *ServerTransport) Dial(ctx context.Context) (io.ReadWriteCloser, error) {
	client, server := net.Pipe()
	ss, err := t.srv.Connect(context.WithoutCancel(ctx), &mcp.IOTransport{Reader: server, Writer: server}, nil)
	if err != nil {
		client.Close()
		return nil, err
	}
	t.mu.Lock()
	t.sessions = append(t.sessions, ss)
	t.mu.Unlock()
	return client, nil
}

// Drop closes every session connected so far and reports how many there
// were: the client sees the server hang up.
func (t *ServerTransport) Drop() int {
	t.mu.Lock()
	ss := t.sessions
	t.sessions = nil
	t.mu.Unlock()
	for _, s := range ss {
		s.Close()
	}
	return len(ss)
}

// Connects counts the sessions connected since the last Drop.
func (t *ServerTransport) Connects() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.sessions)
}

// ModeTransport is a transport to a mode served in-process, as ServeStdio
// serves it (raw modes included), over a pair of pipes: each Connect starts
// the mode anew. Modes served over HTTP only (unauthorized, forbidden) are
// refused (ErrUnsupportedTransport).
type ModeTransport struct {
	name string
	opts *Options

	mu      sync.Mutex
	running []func() // hang up each mode started
}

// NewModeTransport returns a transport to the mode name.
func NewModeTransport(name string, opts *Options) (*ModeTransport, error) {
	if _, err := lookup(name, overStdio); err != nil {
		return nil, err
	}
	return &ModeTransport{name: name, opts: opts}, nil
}

// Connect starts the mode on a goroutine and returns the client's end; the
// mode stops when the client closes its end.
func (t *ModeTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	s := t.start()
	return (&mcp.IOTransport{Reader: s.r, Writer: s.w}).Connect(ctx)
}

// Dial starts the mode on a goroutine and returns the client's end of the
// stream (a hostcore.Dialer); the mode stops when the client closes it.
func (t *ModeTransport) Dial(context.Context) (io.ReadWriteCloser, error) {
	return t.start(), nil
}

// pipes are the client's ends of a mode's stdin and stdout.
type pipes struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (p pipes) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipes) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipes) Close() error                { return errors.Join(p.r.Close(), p.w.Close()) }

// start starts the mode on a goroutine.
func (t *ModeTransport) start() pipes {
	fromServer, serverOut := io.Pipe()
	serverIn, toServer := io.Pipe()
	hangUp := func() {
		serverIn.CloseWithError(io.ErrClosedPipe)
		serverOut.CloseWithError(io.EOF)
	}
	t.mu.Lock()
	t.running = append(t.running, hangUp)
	t.mu.Unlock()
	go func() {
		ServeStdio(context.Background(), t.name, serverIn, serverOut, t.opts)
		hangUp()
	}()
	return pipes{r: fromServer, w: toServer}
}

// Drop hangs up every mode started so far, as servers that die would, and
// reports how many there were.
func (t *ModeTransport) Drop() int {
	t.mu.Lock()
	running := t.running
	t.running = nil
	t.mu.Unlock()
	for _, hangUp := range running {
		hangUp()
	}
	return len(running)
}

// Connects counts the modes started and not dropped.
func (t *ModeTransport) Connects() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.running)
}
