package hostcore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/cmdfile"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/wire"
)

// stdioTransport starts a server process and speaks MCP over its stdin and
// stdout. Unlike mcp.CommandTransport it puts the process in its own process
// group, so that closing the session also ends the children it started (npx
// starting node, a shell starting a server); should the host die without
// closing it, the process dies too (Pdeathsig on Linux, see procAttr) and
// the host's watchdog kills its group. It taps the raw bytes, and notices
// a stdout that breaks the transport's rules (see framer).
type stdioTransport struct {
	cmd       *exec.Cmd
	tap       *wire.Tap
	maxLine   int
	terminate time.Duration   // how long Close waits for a clean exit before signalling
	hurry     context.Context // done when the host wants its servers gone at once
	guard     *watchdog
	bg        *background // counts the goroutines of the process (nil: uncounted)

	proc    *process    // the process Connect started
	release func() bool // stops the connect context from hurrying proc's stop
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	t.cmd.SysProcAttr = procAttr()
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := newProcess(t.cmd, t.terminate)
	if err := p.start(t.guard, t.bg); err != nil {
		return nil, startError(t.cmd, err)
	}
	t.proc = p
	statusOf(ctx).started(p)
	// A connect that runs out of time (or is cancelled) stops the process
	// without the grace a clean close gets; so does a host out of time.
	t.release = context.AfterFunc(ctx, p.hurry)
	if t.hurry != nil {
		unhurry := context.AfterFunc(t.hurry, p.hurry)
		counted(t.bg, func() { <-p.exited; unhurry() })
	}
	in := wire.NewFramer(func(b []byte) { t.tap.Record(wire.Sent, b) })
	out := wire.NewGate(stdout, t.maxLine, wire.JSONValues())
	out.Record = func(b []byte, truncated bool) { t.tap.Keep(wire.Received, b, truncated) }
	out.KeepBig = func(b []byte, values []wire.Elided) { t.tap.KeepElided(wire.Received, b, values) }
	out.Fault, out.Stdout = p.setFault, true
	conn, err := (&mcp.IOTransport{
		Reader: &exitAwareReader{r: io.NopCloser(out), closer: stdout, p: p},
		Writer: teeWriteCloser{w: stdin, tee: in},
		// The gate refuses a message over maxLine first; go-sdk's own bound
		// is a second line, with room for the white space it reads ahead.
		MaxLineLength: t.maxLine + 1<<20,
	}).Connect(ctx)
	if err != nil {
		p.kill()
		return nil, err
	}
	return &processConn{Connection: conn, p: p}, nil
}

// connected is called once the session is up: from then on only a close
// (or the host running out of time) stops the process.
func (t *stdioTransport) connected() {
	if t.release != nil {
		t.release()
	}
}

// process is a running server process and what it wrote to stderr.
type process struct {
	cmd       *exec.Cmd
	stderr    *tailBuffer
	exited    chan struct{}
	err       error // the exit status, once exited is closed
	terminate time.Duration
	guard     *watchdog

	hurried   chan struct{} // closed when stopping must not wait
	hurryOnce sync.Once

	mu    sync.Mutex
	fault error // the first breach of the transport's rules on stdout
}

func newProcess(cmd *exec.Cmd, terminate time.Duration) *process {
	p := &process{cmd: cmd, stderr: &tailBuffer{}, exited: make(chan struct{}), hurried: make(chan struct{}), terminate: terminate}
	cmd.Stderr = p.stderr
	return p
}

// start starts the process and waits for it, from a goroutine locked to its
// OS thread for the process's whole life. On Linux the kernel sends the
// process SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG
// follows the thread, not the process: golang/go#27505). The Go runtime
// ends a thread only when a goroutine locked to it exits, and no other
// goroutine runs on a locked thread, so the thread lives until the process
// has been waited for, and ends early only with the host itself.
func (p *process) start(guard *watchdog, bg *background) error {
	started := make(chan error, 1)
	counted(bg, func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		guard.ready() // before the server starts: it is listed as soon as it has
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		p.guard = guard
		guard.add(p.cmd.Process.Pid)
		started <- nil
		p.err = p.cmd.Wait()
		close(p.exited)
	})
	return <-started
}

// counted runs f on a goroutine, counted by bg if there is one.
func counted(bg *background, f func()) {
	if bg == nil {
		go f()
		return
	}
	bg.goCounted(f)
}

// command is the process's command; nil for a nil process.
// missingScript is the first argument of p's command that names a file
// that does not exist (see cmdfile.Missing), or "".
func (p *process) missingScript() string {
	if p == nil {
		return ""
	}
	return cmdfile.Missing(p.cmd.Dir, p.cmd.Args[1:])
}

// startError explains a command that could not be started: a missing
// file is named, anything else is left as it is.
func startError(cmd *exec.Cmd, err error) error {
	wrapped := &startFailure{path: cmd.Path, err: err}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return newError(fault.KindUsage, wrapped, "the server's command %s was not found on PATH", cmd.Path)
	case errors.Is(err, fs.ErrNotExist):
		return newError(fault.KindUsage, wrapped, "the server's command names %s, which does not exist", cmdfile.Resolve(cmd.Dir, cmd.Path))
	}
	return wrapped
}

// startFailure is a command that could not be started.
type startFailure struct {
	path string
	err  error
}

func (e *startFailure) Error() string { return "starting " + e.path + ": " + e.err.Error() }
func (e *startFailure) Unwrap() error { return e.err }

// exitError explains why the process ended, with the tail of its stderr.
func (p *process) exitError() error {
	<-p.exited
	msg := "exited"
	if p.err != nil {
		msg = p.err.Error()
	}
	if tail := p.stderr.Lines(); len(tail) > 0 {
		msg += "; stderr: " + strings.Join(tail, " | ")
	}
	return fmt.Errorf("%w (%s)", errProcessExited, msg)
}

// setFault records the first breach of the transport's rules on stdout.
func (p *process) setFault(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fault == nil {
		p.fault = err
	}
}

// breach returns the first breach of the transport's rules, if any. It is
// safe on a nil process.
func (p *process) breach() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fault
}

// hurry makes stop give a clean exit hurryGrace instead of terminate.
func (p *process) hurry() { p.hurryOnce.Do(func() { close(p.hurried) }) }

// hurryGrace is how long a hurried stop waits for an exit before each
// signal.
const hurryGrace = 50 * time.Millisecond

// stop ends the process: it waits for a clean exit after stdin closed, then
// signals the whole group (SIGTERM, then SIGKILL), and always finally kills
// the group so no child is left behind.
func (p *process) stop() {
	d := p.terminate
	if d <= 0 {
		d = 2 * time.Second
	}
	if !p.exitedWithin(d) {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		p.exitedWithin(d)
	}
	p.kill()
}

// exitedWithin reports whether the process exits within d, or within
// hurryGrace once hurried.
func (p *process) exitedWithin(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	case <-p.hurried:
	}
	t.Reset(hurryGrace)
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// kill kills the process group, waits for the process, and tells the
// watchdog the group is gone.
func (p *process) kill() {
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
	p.guard.remove(p.cmd.Process.Pid)
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

// The stderr of a server that the host keeps: the last stderrLog lines for
// the console, each cut to a length, of which the last stderrLines go with
// an error.
const (
	stderrLines   = 20
	stderrLog     = 1000
	stderrLineMax = 500
)

// tailBuffer keeps the last stderrLog lines written to it, each cut to
// stderrLineMax bytes. It is safe for concurrent use.
type tailBuffer struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		line, rest, found := bytes.Cut(p, []byte("\n"))
		if room := stderrLineMax - len(b.partial); room > 0 {
			b.partial = append(b.partial, line[:min(room, len(line))]...)
		}
		if !found {
			break
		}
		b.lines = append(b.lines, strings.TrimSuffix(string(b.partial), "\r"))
		if len(b.lines) > 2*stderrLog { // trimmed in bulk, not on every line
			b.lines = append(b.lines[:0], b.lines[len(b.lines)-stderrLog:]...)
		}
		b.partial, p = b.partial[:0], rest
	}
	return n, nil
}

// Lines returns the last stderrLines lines, oldest first, with an
// unfinished last line: the tail that goes with an error.
func (b *tailBuffer) Lines() []string { return b.last(stderrLines) }

// last returns the last n lines, oldest first, with an unfinished last line.
func (b *tailBuffer) last(n int) []string {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	start := max(0, len(b.lines)-n)
	out := append([]string(nil), b.lines[start:]...)
	if len(b.partial) > 0 {
		out = append(out, string(b.partial))
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
