package hostcore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport starts a server process and speaks MCP over its stdin and
// stdout. Unlike mcp.CommandTransport it puts the process in its own process
// group, so that closing the session also ends the children it started (npx
// starting node, a shell starting a server), and it taps the raw bytes.
type stdioTransport struct {
	cmd       *exec.Cmd
	tap       *Tap
	maxLine   int
	terminate time.Duration // how long Close waits for a clean exit before signalling
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	t.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &tailBuffer{max: 4096}
	t.cmd.Stderr = stderr
	if err := t.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", t.cmd.Path, err)
	}
	p := &process{cmd: t.cmd, stderr: stderr, exited: make(chan struct{}), terminate: t.terminate}
	go p.wait()
	in := &framer{emit: func(b []byte) { t.tap.record(Sent, b) }}
	out := &framer{emit: func(b []byte) { t.tap.record(Received, b) }}
	conn, err := (&mcp.IOTransport{
		Reader:        &exitAwareReader{r: io.NopCloser(io.TeeReader(stdout, out)), closer: stdout, p: p},
		Writer:        teeWriteCloser{w: stdin, tee: in},
		MaxLineLength: t.maxLine,
	}).Connect(ctx)
	if err != nil {
		p.kill()
		return nil, err
	}
	return &processConn{Connection: conn, p: p}, nil
}

// process is a running server process and what it wrote to stderr.
type process struct {
	cmd       *exec.Cmd
	stderr    *tailBuffer
	exited    chan struct{}
	err       error // the exit status, once exited is closed
	terminate time.Duration
}

func (p *process) wait() {
	p.err = p.cmd.Wait()
	close(p.exited)
}

// exitError explains why the process ended, with the tail of its stderr.
func (p *process) exitError() error {
	<-p.exited
	msg := "exited"
	if p.err != nil {
		msg = p.err.Error()
	}
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		msg += "; stderr: " + tail
	}
	return fmt.Errorf("%w (%s)", errProcessExited, msg)
}

// stop ends the process: it waits for a clean exit after stdin closed, then
// signals the whole group (SIGTERM, then SIGKILL), and always finally kills
// the group so no child is left behind.
func (p *process) stop() {
	d := p.terminate
	if d <= 0 {
		d = 2 * time.Second
	}
	select {
	case <-p.exited:
	case <-time.After(d):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(d):
		}
	}
	p.kill()
}

func (p *process) kill() {
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// processConn ends the process when the connection closes.
type processConn struct {
	mcp.Connection
	p    *process
	once sync.Once
}

func (c *processConn) Close() error {
	err := c.Connection.Close()
	c.once.Do(c.p.stop)
	return err
}

// exitAwareReader turns the end of the server's stdout into an error that
// says the process exited, and why.
type exitAwareReader struct {
	r      io.ReadCloser
	closer io.Closer
	p      *process
}

func (r *exitAwareReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
		select {
		case <-r.p.exited:
			return n, r.p.exitError()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return n, err
}

func (r *exitAwareReader) Close() error { return r.closer.Close() }

type teeWriteCloser struct {
	w   io.WriteCloser
	tee io.Writer
}

// Write records b before sending it, so that a fast reply can never be
// recorded before its request.
func (t teeWriteCloser) Write(b []byte) (int, error) {
	t.tee.Write(b)
	return t.w.Write(b)
}

func (t teeWriteCloser) Close() error { return t.w.Close() }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = b.buf[len(b.buf)-b.max:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// credentialRoundTripper sends the authorization context's headers to the
// context's own origin and nowhere else, records the JSON-RPC bodies in the
// tap, and records each request's HTTP status in that request's context
// (see withStatus), so that go-sdk's error, which carries the status only
// as text, is classified by the status of its own request.
//
// A redirect to another origin is followed without any credential: the
// configured headers are not added, and the Authorization net/http derives
// from URL userinfo, cookies and every configured header name are removed.
// net/http itself would keep them on a redirect to another port of the
// same host.
type credentialRoundTripper struct {
	base    http.RoundTripper
	origin  string
	headers map[string]string
	tap     *Tap
	// maxBody bounds a response body: go-sdk reads a JSON body whole,
	// however large.
	maxBody int64
}

func newCredentialRoundTripper(base http.RoundTripper, auth *authContext, tap *Tap, maxBody int64) *credentialRoundTripper {
	rt := &credentialRoundTripper{base: base, headers: auth.headers, tap: tap, maxBody: maxBody}
	if u, err := url.Parse(auth.url); err == nil {
		rt.origin = origin(u)
	}
	return rt
}

// origin is a URL's scheme, host and port, with the default port explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func (rt *credentialRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if rt.origin != "" && origin(req.URL) == rt.origin {
		for k, v := range rt.headers {
			req.Header.Set(k, v)
		}
	} else {
		req.URL.User = nil
		for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie"} {
			req.Header.Del(k)
		}
		for k := range rt.headers {
			req.Header.Del(k)
		}
	}
	if req.Body != nil && req.Method == http.MethodPost {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		rt.tap.record(Sent, body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		statusOf(req.Context()).set(resp.StatusCode)
	}
	resp.Body = tapResponse(resp, rt.tap)
	if rt.maxBody > 0 && mediaType(resp.Header.Get("Content-Type")) == "application/json" {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: rt.maxBody}
	}
	return resp, nil
}

// mediaType returns the lowercased media type of a Content-Type value.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// requestStatus holds the HTTP status of one request's failure.
type requestStatus struct{ code atomic.Int64 }

type statusKey struct{}

// withStatus returns a context whose HTTP requests record their failing
// status in the returned holder. Each call (and each connect) has its own,
// so concurrent requests on one connection never take each other's status.
func withStatus(ctx context.Context) (context.Context, *requestStatus) {
	s := &requestStatus{}
	return context.WithValue(ctx, statusKey{}, s), s
}

func statusOf(ctx context.Context) *requestStatus {
	s, _ := ctx.Value(statusKey{}).(*requestStatus)
	return s
}

func (s *requestStatus) set(code int) {
	if s != nil {
		s.code.Store(int64(code))
	}
}

// get returns the recorded status, or 0.
func (s *requestStatus) get() int {
	if s == nil {
		return 0
	}
	return int(s.code.Load())
}

// errBodyTooLarge ends a response body over the host's size limit.
var errBodyTooLarge = errors.New("reply too long: over the host's size limit")

// limitedBody fails a read past its limit instead of truncating silently.
type limitedBody struct {
	io.ReadCloser
	left int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.ReadCloser.Read(p)
	l.left -= int64(n)
	return n, err
}

// tapResponse records a response body as it is read: a JSON body whole, an
// event stream one data payload at a time.
func tapResponse(resp *http.Response, tap *Tap) io.ReadCloser {
	var sink io.Writer
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		sink = &sseTap{tap: tap}
	case "application/json":
		sink = &framer{emit: func(b []byte) { tap.record(Received, b) }}
	default:
		return resp.Body
	}
	return struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, sink), resp.Body}
}

// sseTap parses a server-sent event stream and records each event's data.
type sseTap struct {
	tap     *Tap
	partial []byte
	data    bytes.Buffer
}

func (s *sseTap) Write(p []byte) (int, error) {
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := bytes.TrimSuffix(s.partial[:i], []byte("\r"))
		s.partial = s.partial[i+1:]
		s.line(line)
	}
}

func (s *sseTap) line(line []byte) {
	switch {
	case len(line) == 0:
		if s.data.Len() > 0 {
			s.tap.record(Received, s.data.Bytes())
			s.data.Reset()
		}
	case bytes.HasPrefix(line, []byte("data:")):
		if s.data.Len() > 0 {
			s.data.WriteByte('\n')
		}
		s.data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
	}
}
