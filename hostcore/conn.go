package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/hooks"
	"github.com/attache/attache/hostcore/listmemo"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/hostcore/subrecord"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/wire"
)

// ConnState is where a connection stands.
type ConnState string

// Connection states.
const (
	StateIdle         ConnState = "idle"
	StateConnecting   ConnState = "connecting"
	StateConnected    ConnState = "connected"
	StateDisconnected ConnState = "disconnected"
	StateFailed       ConnState = "failed"
	StateClosed       ConnState = "closed" // for good: logged out or removed
)

// ConnInfo is what the host knows of a connection, for people to see.
type ConnInfo struct {
	State ConnState
	// ProtocolVersion is the version negotiated with the server.
	ProtocolVersion string
	// Server is what the server said of itself; nil before it connected.
	Server *ServerInfo
	// Capabilities is what it declared it offers, in the host's terms;
	// DeclaredCapabilities is the capabilities object as it declared it,
	// for a display of all of it (attachectl info --json).
	Capabilities         Capabilities
	DeclaredCapabilities json.RawMessage
	Instructions         string
	ConnectedAt          time.Time
	// LastError is why the connection was lost or could not be made.
	LastError error
	// Connects counts successful connections (reconnects are the rest).
	Connects int
	// PID is the server process of a stdio connection.
	PID int
	// Handshake is how the session was opened: transport and opening.
	Handshake Handshake
}

// Conn is the connection to one server as one account. It connects on first
// use, notices when the server process dies or the connection drops, and
// reconnects on the next use, backing off after failed attempts. The Host
// owns it: Close is final, and only the Host closes it (at Logout, when the
// server is removed or replaced, or when the Host closes). Watchers, screens
// and commands borrow it and never revive it. It is safe for concurrent use.
type Conn struct {
	host     *Host
	key      connKey
	Server   config.ServerConfig
	Account  config.Account
	tap      *wire.Tap
	identity string // Server.Identity(), computed once

	// connecting holds one token: whoever holds it may connect. A channel,
	// not a mutex, so that a caller waiting behind a slow connect (a backoff,
	// a prompt) can give up when its own context ends.
	connecting chan struct{}

	mu       sync.Mutex // guards the fields below
	auth     *authContext
	oauth    *signin.Handler // signs in, for an HTTP server without an Authorization header
	closed   bool
	closedBy error // why Close was called, when it was a sign-out (see errClosed)
	cs       *mcp.ClientSession
	proc     *process // cs's stdio server
	lastProc *process // the last stdio server started, connected or not: its stderr is the console's
	info     ConnInfo
	failures int       // consecutive failed connects
	retryAt  time.Time // no connect attempt before this
	subs     map[string]*subscription
	acks     subrecord.AckWaiters // 2026-07-28 subscriptions waiting for the server's acknowledgement

	memo  completionMemo
	lists listmemo.Memo // the listings of this session (see sessionNow)
	defs  toolcall.Defs // the tools of the last listing (toolcall.go)

	onUpdate  hooks.List[func(uri string)]
	onList    hooks.List[func()]
	onConnect hooks.List[func()]
}

// Tap returns the raw JSON-RPC record of this connection.
func (c *Conn) Tap() *wire.Tap { return c.tap }

// Host returns the host that owns c: its consent gate decides on c's tool
// calls.
func (c *Conn) Host() *Host { return c.host }

// Stderr returns what the stdio server of this connection wrote to stderr
// (its last 1000 lines, oldest first, with the context's secrets hidden),
// from the process running now or, after it ended, the last one. ok is
// false when there is no process to ask: an HTTP server, or none started.
func (c *Conn) Stderr() (lines []string, ok bool) {
	c.mu.Lock()
	p, auth := c.lastProc, c.auth
	c.mu.Unlock()
	if p == nil {
		return nil, false
	}
	lines = p.stderr.last(stderrLog)
	if auth != nil {
		for i, l := range lines {
			lines[i] = auth.secrets.Redact(l)
		}
	}
	return lines, true
}

// Info returns a snapshot of the connection's state.
func (c *Conn) Info() ConnInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	info := c.info
	if info.State == "" {
		info.State = StateIdle
	}
	return info
}

// OnResourceUpdated registers f to run for each
// notifications/resources/updated, and returns the function that
// unregisters it.
func (c *Conn) OnResourceUpdated(f func(uri string)) (unregister func()) {
	return c.onUpdate.Add(f)
}

// OnResourceListChanged registers f to run for each resources list_changed,
// and returns the function that unregisters it.
func (c *Conn) OnResourceListChanged(f func()) (unregister func()) { return c.onList.Add(f) }

// OnConnect registers f to run after each successful reconnect, and returns
// the function that unregisters it.
func (c *Conn) OnConnect(f func()) (unregister func()) { return c.onConnect.Add(f) }

// Close ends the session (and a stdio server's process group) for good:
// nothing reconnects a closed connection. Only the Host calls it; others
// ask the Host (Logout, RemoveServer).
func (c *Conn) Close() error {
	c.mu.Lock()
	cs := c.cs
	c.cs, c.closed = nil, true
	c.info.State = StateClosed
	c.mu.Unlock()
	c.host.serversChanged()
	if cs == nil {
		return nil
	}
	return cs.Close()
}

// closeBecause records why the connection is about to close for good, for
// the error of every later use (see errClosed).
func (c *Conn) closeBecause(err error) {
	c.mu.Lock()
	c.closedBy = err
	c.mu.Unlock()
}

// Closed reports whether the connection was closed for good.
func (c *Conn) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// errClosed is the error of every use of a closed connection: a sign-out
// asks for a sign-in, naming the action.
func (c *Conn) errClosed(op string) error {
	c.mu.Lock()
	by := c.closedBy
	c.mu.Unlock()
	if by != nil {
		return by
	}
	return newError(fault.KindCanceled, nil, "%s: the connection to %s was closed (logged out or removed)", op, c)
}

// Connect makes sure c has a live session, connecting or reconnecting as
// needed (see session), and returns the connect's error.
func (c *Conn) Connect(ctx context.Context) error {
	_, err := c.session(ctx)
	return err
}

// session returns a live session, connecting or reconnecting as needed.
// The authorization context is resolved (inputs asked for) first; then
// one caller connects while the others wait, each on its own context.
// A tool call never goes through the session itself: it is made with
// CallTool, on a decision of the consent gate (see consent.go).
func (c *Conn) session(ctx context.Context) (*mcp.ClientSession, error) {
	const op = "connecting"
	if cs, closed := c.live(); closed {
		return nil, c.errClosed(op)
	} else if cs != nil {
		return cs, nil
	}
	auth, err := c.authContext(ctx)
	if err != nil {
		return nil, err
	}
	select {
	case c.connecting <- struct{}{}:
	case <-ctx.Done():
		return nil, classify(ctx.Err(), "waiting to connect to "+c.Server.Name, "", 0)
	}
	defer func() { <-c.connecting }()
	c.mu.Lock()
	cs, retryAt, closed := c.cs, c.retryAt, c.closed
	connecting := cs == nil && !closed && c.info.State != StateConnecting
	if connecting {
		c.info.State = StateConnecting
	}
	c.mu.Unlock()
	if connecting {
		c.host.serversChanged()
	}
	switch {
	case closed:
		return nil, c.errClosed(op)
	case cs != nil:
		return cs, nil
	}
	if wait := retryAt.Sub(c.host.opts.Now.now()); wait > 0 {
		if err := c.host.opts.Sleep(ctx, wait); err != nil {
			return nil, classify(err, "waiting to reconnect to "+c.Server.Name, "", 0)
		}
	}
	cs, err = c.connect(ctx, auth)
	return c.connected(cs, err)
}

// live returns the current session, if any, and whether c is closed.
func (c *Conn) live() (*mcp.ClientSession, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cs, c.closed
}

// connected records the outcome of a connect. A session that completes
// after Close is closed at once: Close is final.
func (c *Conn) connected(cs *mcp.ClientSession, err error) (*mcp.ClientSession, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		if cs != nil {
			cs.Close()
		}
		return nil, c.errClosed("connecting")
	}
	if err != nil {
		c.failures++
		c.retryAt = c.host.opts.Now.now().Add(backoff(c.failures))
		c.info.State, c.info.LastError = StateFailed, err
		c.mu.Unlock()
		c.host.serversChanged()
		if errors.Is(err, fault.ErrUnauthorized) {
			c.host.purgeContext(context.Background(), c)
		}
		return nil, err
	}
	c.failures, c.retryAt, c.cs = 0, time.Time{}, cs
	c.info = ConnInfo{State: StateConnected, ConnectedAt: c.host.opts.Now.now(), Connects: c.info.Connects + 1, PID: c.info.PID,
		Handshake: c.info.Handshake}
	if res := cs.InitializeResult(); res != nil {
		c.info.ProtocolVersion, c.info.Server = res.ProtocolVersion, serverInfoOf(res.ServerInfo)
		c.info.Capabilities, c.info.Instructions = capabilitiesOf(res.Capabilities), res.Instructions
		c.info.DeclaredCapabilities = declared(res.Capabilities)
	}
	reconnect := c.info.Connects > 1
	subs := c.subscribed()
	c.mu.Unlock()
	c.host.serversChanged()
	c.host.bg.goCounted(func() { c.watch(cs) })
	if reconnect {
		c.host.bg.goCounted(func() { // after the lock is released: the hooks use the session
			c.resubscribe(cs, subs)
			for _, f := range c.onConnect.All() {
				f()
			}
		})
	}
	return cs, nil
}

// backoff is the wait after n consecutive failed connects: 250 ms doubling
// to at most 30 s.
// maxBackoff is the longest wait between connect attempts.
const maxBackoff = 30 * time.Second

func backoff(n int) time.Duration {
	d := 250 * time.Millisecond
	for i := 1; i < n && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}

// watch notices the end of a session: the next use reconnects.
func (c *Conn) watch(cs *mcp.ClientSession) {
	err := cs.Wait()
	defer c.host.serversChanged() // after the unlock
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cs != cs {
		return // closed on purpose, or already replaced
	}
	c.cs = nil
	c.info.State = StateDisconnected
	if err == nil {
		err = errors.New("the server closed the connection")
	}
	c.info.LastError = c.auth.redactError(classify(err, "connection to "+c.Server.Name, "", 0))
	c.host.log.Info("connection lost", "server", c.Server.Name, "account", c.Account.Name, "err", c.info.LastError)
}

// markDead drops a session after a transport failure so the next use
// reconnects, even if go-sdk has not noticed yet.
// Only the one that detaches the session closes it (on a goroutine the
// host counts): a session already detached was closed by whoever did.
func (c *Conn) markDead(cs *mcp.ClientSession, err error) {
	defer c.host.serversChanged() // after the unlock
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cs != cs {
		return
	}
	c.cs = nil
	c.info.State, c.info.LastError = StateDisconnected, err
	c.host.bg.goCounted(func() { cs.Close() }) // counted under c.mu, so a Shutdown after Close waits for it
}

// connect starts a session, the way the handshake memory says or by
// probing (handshake.go). The connect timeout starts here, after the
// inputs were asked for.
func (c *Conn) connect(parent context.Context, auth *authContext) (*mcp.ClientSession, error) {
	c.host.bg.add() // it may start a process: Shutdown waits for it
	defer c.host.bg.done()
	ctx, cancel := context.WithTimeout(signin.WithCallerDeadline(parent), c.host.opts.ConnectTimeout)
	defer cancel()
	defer context.AfterFunc(c.host.closing, cancel)() // a closing host makes no new session
	ctx, status := withStatus(ctx)
	cs, transport, err := c.handshake(ctx, auth)
	if err != nil && errors.Is(parent.Err(), context.Canceled) {
		// The caller canceled: whatever the transport then met (go-sdk
		// closing the client in the middle of a sign-in, with the
		// sign-in's error kept only as text) is that cancellation.
		var he *fault.Error
		for errors.As(err, &he) && he.Unwrap() != nil {
			err = he.Unwrap() // the handshake's own reading of the failure, a 401, is not what happened
		}
		return nil, auth.redactError(newError(fault.KindCanceled, err, "connecting to %s: %s", c.Server.Name, c.oauth.CancelReason()))
	}
	if p := status.process(); p != nil {
		c.mu.Lock()
		c.lastProc = p
		c.mu.Unlock()
	}
	if err != nil {
		return nil, auth.redactError(c.explain(err, "connecting to "+c.Server.Name, "", status, true))
	}
	if st, ok := transport.(*stdioTransport); ok && st.cmd.Process != nil {
		st.connected()
		c.mu.Lock()
		c.info.PID = st.cmd.Process.Pid
		c.proc = st.proc
		c.mu.Unlock()
	}
	return cs, nil
}

func (c *Conn) resourceUpdated(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	for _, f := range c.onUpdate.All() {
		f(req.Params.URI)
	}
}

func (c *Conn) resourceListChanged(context.Context, *mcp.ResourceListChangedRequest) {
	c.lists.Forget(resourceListing.method, templateListing.method)
	for _, f := range c.onList.All() {
		f()
	}
}

func (c *Conn) toolListChanged(context.Context, *mcp.ToolListChangedRequest) {
	c.lists.Forget(methodListTools)
	c.host.invalidateMethod(context.Background(), c.identity, methodListTools)
}

// transport builds the stdio or HTTP transport from the resolved
// authorization context: the server receives exactly what the partition
// was computed from.
func (c *Conn) transport(auth *authContext) mcp.Transport {
	maxLine := int(c.host.opts.MaxBodyBytes*2) + 1<<20 // base64 and JSON escaping
	if c.Server.IsHTTP() {
		rt := newCredentialRoundTripper(c.host.opts.HTTPTransport, auth, c.tap, int64(maxLine)).forHost(c.host)
		t := &mcp.StreamableClientTransport{
			Endpoint:     auth.url,
			HTTPClient:   &http.Client{Transport: rt},
			MaxRetries:   2,
			MaxEventSize: maxLine,
		}
		if o := c.oauthOf(); o != nil {
			t.OAuthHandler = o
			rt.signsIn = c.Server.Name
		}
		return t
	}
	cmd := exec.Command(auth.command, auth.args...)
	cmd.Dir = auth.dir
	cmd.Env = slices.Clone(auth.env)
	return &stdioTransport{cmd: cmd, tap: c.tap, maxLine: maxLine, hurry: c.host.hurry, guard: c.host.guard, bg: &c.host.bg}
}

// merge returns base overlaid with over.
func merge(base, over map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}

// call runs one request on a live session with the request timeout, and
// classifies its error from typed values and the HTTP status of this
// request alone. A transport failure drops the session so that the next
// call reconnects; a 401 means the context no longer authenticates, and its
// private entries are purged.
func call[T any](ctx context.Context, c *Conn, op, uri string, f func(context.Context, *mcp.ClientSession) (T, error)) (T, error) {
	var zero T
	cs, err := c.session(ctx)
	if err != nil {
		return zero, err
	}
	ctx, cancel := context.WithTimeout(signin.WithCallerDeadline(ctx), c.host.opts.RequestTimeout)
	defer cancel()
	defer context.AfterFunc(c.host.hurry, cancel)() // a host out of time waits for no request
	ctx, status := withStatus(ctx)
	res, err := f(ctx, cs)
	if err != nil {
		c.mu.Lock()
		auth := c.auth
		c.mu.Unlock()
		err = auth.redactError(c.explain(err, op, uri, status, false))
		switch {
		case errors.Is(err, fault.ErrTransport):
			c.markDead(cs, err)
		case errors.Is(err, fault.ErrUnauthorized):
			c.host.purgeContext(context.Background(), c)
		}
		return zero, err
	}
	return res, nil
}

// String names the connection for logs and messages.
func (c *Conn) String() string { return fmt.Sprintf("%s as %s", c.Server.Name, c.Account.Name) }

// credentials fingerprints the credentials a connection's config declares,
// unresolved: it tells an edited account's connection from the old one.
func credentials(sc config.ServerConfig, acct config.Account) string {
	return fingerprint(sc.Headers, sc.Env, acct.Headers, acct.Env)
}

// fingerprint is a short hash of maps of secrets: it tells them apart
// without keeping them.
func fingerprint(ms ...map[string]string) string {
	h := sha256.New()
	for _, m := range ms {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(h, "%d:%s=%d:%s;", len(k), k, len(m[k]), m[k])
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// sessionNow is the session a listing is kept for (see listmemo.Memo.Take):
// the connection's count of connects while it is connected, -1 (no session
// to keep it for) otherwise.
func (c *Conn) sessionNow() int {
	info := c.Info()
	if info.State != StateConnected {
		return -1
	}
	return info.Connects
}
