package mcptest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrUnknownMode is returned (wrapped) for a mode name that ModeNames does
// not list.
var ErrUnknownMode = errors.New("unknown mode")

// ErrUnsupportedTransport is returned (wrapped) when a mode is asked for over
// a transport it does not serve: unauthorized and forbidden are HTTP only,
// spawner is stdio only.
var ErrUnsupportedTransport = errors.New("mode not served over this transport")

// Defaults of the Options fields.
const (
	DefaultResources = 50_000
	DefaultPageSize  = 100
	DefaultTemplates = 150
	DefaultBodyBytes = 40 << 20
	DefaultDelay     = 10 * time.Second
)

// Options tunes the modes. A nil *Options, or a zero field, takes the
// documented default. Options are read once, when a server is built.
type Options struct {
	// Resources is how many resources the paged mode lists.
	Resources int
	// PageSize is the paged mode's page size, for resources and templates.
	PageSize int
	// Templates is how many templates the paged mode lists.
	Templates int
	// ListTTL, when positive, is the ttlMs (scope public) of the paged
	// mode's list pages, so that a host caches them; 0 leaves them
	// immediately stale, as go-sdk writes by default.
	ListTTL time.Duration
	// BodyBytes is the length of the oversize mode's text body.
	BodyBytes int64
	// Delay is how long the slow mode waits before answering a read.
	Delay time.Duration
	// Exit ends the process for die-on-read (mcptestd passes os.Exit). When
	// nil, as in-process, a stdio server stops and closes its output, and an
	// HTTP server aborts the connection of this and every later request.
	Exit func(code int)
	// Stderr receives the spawner's "child-pid=N" line and the lines of
	// not-json-initialize; nil discards it.
	Stderr io.Writer
	// Child builds the spawner's long-lived child; nil runs "sleep 300".
	Child func() *exec.Cmd
	// Logger receives the go-sdk servers' log; nil discards it.
	Logger *slog.Logger
}

// withDefaults returns a copy of o with every unset field defaulted.
func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	c.Resources = orDefault(c.Resources, DefaultResources)
	c.PageSize = orDefault(c.PageSize, DefaultPageSize)
	c.Templates = orDefault(c.Templates, DefaultTemplates)
	c.BodyBytes = orDefault(c.BodyBytes, DefaultBodyBytes)
	c.Delay = orDefault(c.Delay, DefaultDelay)
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	if c.Child == nil {
		c.Child = func() *exec.Cmd { return exec.Command("sleep", "300") }
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// orDefault returns v, or def when v is not positive.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// transports says over which transports a mode is served.
type transports int

const (
	overBoth transports = iota
	overHTTP
	overStdio
)

// mode is one entry of the mode table: either a go-sdk server or a raw
// JSON-RPC server with a scripted read fault.
type mode struct {
	name   string
	over   transports
	server func(Options) *mcp.Server // nil for raw modes
	// stateless serves HTTP without sessions. go-sdk v1.8.0 serves
	// 2026-07-28 over HTTP only so: its stateful handler leaves that
	// version out of server/discover, and clients fall back to initialize.
	stateless bool
}

// modes is the mode table, in the order of the package doc's table.
var modes = func() []mode {
	ms := []mode{
		{name: ModeV2026, server: eraServer(ModeV2026), stateless: true},
		{name: ModeV2025Nov, server: eraServer(ModeV2025Nov)},
		{name: ModeV2025Jun, server: eraServer(ModeV2025Jun)},
		{name: ModePaged, server: pagedServer, stateless: true},
		{name: ModeImage, server: imageServer, stateless: true},
		{name: ModeHostile, server: hostileServer, stateless: true},
		{name: ModeCycle, server: cycleServer, stateless: true},
		{name: ModeBodies, server: bodiesServer, stateless: true},
	}
	for _, f := range faultNames {
		ms = append(ms, mode{name: f, over: overFor(f)})
	}
	return append(ms, mode{name: ModeSpawner, over: overStdio})
}()

// ModeNames returns the name of every mode, in the order of the package
// doc's table. The slice is the caller's.
func ModeNames() []string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = m.name
	}
	return names
}

// lookup finds a mode and checks that it is served over via (overHTTP or
// overStdio).
func lookup(name string, via transports) (mode, error) {
	i := slices.IndexFunc(modes, func(m mode) bool { return m.name == name })
	if i < 0 {
		return mode{}, fmt.Errorf("%w %q (known: %v)", ErrUnknownMode, name, ModeNames())
	}
	m := modes[i]
	if m.over != overBoth && m.over != via {
		return mode{}, fmt.Errorf("%w: %s", ErrUnsupportedTransport, name)
	}
	return m, nil
}

// Handler returns the mode's MCP endpoint at /mcp over Streamable HTTP, for
// httptest or a listener. The go-sdk modes that speak 2026-07-28 (v2026,
// paged, image) are stateless, as go-sdk requires for that version: GET and
// DELETE get 405. The legacy era modes keep sessions. The raw modes answer
// every POST with application/json.
// The handler is safe for concurrent use.
func Handler(name string, opts *Options) (http.Handler, error) {
	m, err := lookup(name, overHTTP)
	if err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	var h http.Handler
	if m.server == nil {
		h = newRawServer(name, o)
	} else {
		srv := m.server(o)
		h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: m.stateless, Logger: o.Logger})
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return mux, nil
}

// ServeStdio serves the mode over newline-delimited JSON on in and out until
// in reaches EOF, ctx is done, or (die-on-read without Options.Exit) the
// server dies. It closes out before it returns.
func ServeStdio(ctx context.Context, name string, in io.ReadCloser, out io.WriteCloser, opts *Options) error {
	m, err := lookup(name, overStdio)
	if err != nil {
		return err
	}
	o := opts.withDefaults()
	switch {
	case m.name == ModeSpawner:
		return serveSpawner(ctx, in, out, o)
	case m.server == nil:
		defer out.Close()
		return newRawServer(name, o).serveStdio(ctx, in, out)
	}
	return runServer(ctx, m.server(o), in, out)
}

// runServer runs srv over in and out and treats the peer hanging up as a
// clean end.
func runServer(ctx context.Context, srv *mcp.Server, in io.ReadCloser, out io.WriteCloser) error {
	err := srv.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("serving over stdio: %w", err)
}
