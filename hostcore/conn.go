package hostcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
)

// ConnInfo is what the host knows of a connection, for people to see.
type ConnInfo struct {
	State ConnState
	// ProtocolVersion is the version negotiated with the server.
	ProtocolVersion string
	Server          *mcp.Implementation
	Capabilities    *mcp.ServerCapabilities
	Instructions    string
	ConnectedAt     time.Time
	// LastError is why the connection was lost or could not be made.
	LastError error
	// Connects counts successful connections (reconnects are the rest).
	Connects int
	// PID is the server process of a stdio connection.
	PID int
}

// Conn is the connection to one server as one account. It connects on first
// use, notices when the server process dies or the connection drops, and
// reconnects on the next use, backing off after failed attempts. It is safe
// for concurrent use.
type Conn struct {
	host     *Host
	key      connKey
	Server   ServerConfig
	Account  Account
	tap      *Tap
	identity string // Server.Identity(), computed once
	// partition is the cache partition of this connection's private
	// entries: the account's name, "@", and a fingerprint of every
	// credential it presents. Two tokens never share private entries, even
	// under one account name (an ad-hoc server's, or a config edited by
	// hand to another tenant's token).
	partition string

	connMu sync.Mutex // serializes connecting

	mu       sync.Mutex // guards the fields below
	cs       *mcp.ClientSession
	info     ConnInfo
	failures int       // consecutive failed connects
	retryAt  time.Time // no connect attempt before this

	memo completionMemo

	hmu       sync.Mutex // guards the notification handlers
	onUpdate  []func(uri string)
	onList    []func()
	onConnect []func()
}

// Tap returns the raw JSON-RPC record of this connection.
func (c *Conn) Tap() *Tap { return c.tap }

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

// OnResourceUpdated registers f to run for each notifications/resources/updated.
func (c *Conn) OnResourceUpdated(f func(uri string)) {
	c.hmu.Lock()
	c.onUpdate = append(c.onUpdate, f)
	c.hmu.Unlock()
}

// OnResourceListChanged registers f to run for each resources list_changed.
func (c *Conn) OnResourceListChanged(f func()) {
	c.hmu.Lock()
	c.onList = append(c.onList, f)
	c.hmu.Unlock()
}

// OnConnect registers f to run after each successful connect, including
// reconnects (subscriptions must be renewed then).
func (c *Conn) OnConnect(f func()) {
	c.hmu.Lock()
	c.onConnect = append(c.onConnect, f)
	c.hmu.Unlock()
}

// Close ends the session (and a stdio server's process group).
func (c *Conn) Close() error {
	c.mu.Lock()
	cs := c.cs
	c.cs = nil
	c.info.State = StateDisconnected
	c.mu.Unlock()
	if cs == nil {
		return nil
	}
	return cs.Close()
}

// Session returns a live session, connecting or reconnecting as needed.
func (c *Conn) Session(ctx context.Context) (*mcp.ClientSession, error) {
	c.connMu.Lock()
	defer c.connMu.Unlock()
	c.mu.Lock()
	cs, retryAt := c.cs, c.retryAt
	if cs == nil {
		c.info.State = StateConnecting
	}
	c.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	if wait := retryAt.Sub(c.host.opts.Now.now()); wait > 0 {
		if err := c.host.opts.Sleep(ctx, wait); err != nil {
			return nil, classify(err, "waiting to reconnect to "+c.Server.Name, "", 0)
		}
	}
	cs, err := c.connect(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.failures++
		c.retryAt = c.host.opts.Now.now().Add(backoff(c.failures))
		c.info.State, c.info.LastError = StateFailed, err
		return nil, err
	}
	c.failures, c.retryAt, c.cs = 0, time.Time{}, cs
	c.info = ConnInfo{State: StateConnected, ConnectedAt: c.host.opts.Now.now(), Connects: c.info.Connects + 1, PID: c.info.PID}
	if res := cs.InitializeResult(); res != nil {
		c.info.ProtocolVersion, c.info.Server = res.ProtocolVersion, res.ServerInfo
		c.info.Capabilities, c.info.Instructions = res.Capabilities, res.Instructions
	}
	go c.watch(cs)
	if c.info.Connects > 1 {
		c.hmu.Lock()
		fs := append([]func(){}, c.onConnect...)
		c.hmu.Unlock()
		for _, f := range fs {
			go f() // after the lock is released: f uses the session
		}
	}
	return cs, nil
}

// backoff is the wait after n consecutive failed connects: 250 ms doubling
// to at most 30 s.
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
	c.info.LastError = classify(err, "connection to "+c.Server.Name, "", 0)
	c.host.log.Info("connection lost", "server", c.Server.Name, "account", c.Account.Name, "err", err)
}

// markDead drops a session after a transport failure so the next use
// reconnects, even if go-sdk has not noticed yet.
func (c *Conn) markDead(cs *mcp.ClientSession, err error) {
	c.mu.Lock()
	if c.cs == cs {
		c.cs = nil
		c.info.State, c.info.LastError = StateDisconnected, err
	}
	c.mu.Unlock()
	go cs.Close()
}

func (c *Conn) connect(ctx context.Context) (*mcp.ClientSession, error) {
	op := "connecting to " + c.Server.Name
	ctx, cancel := context.WithTimeout(ctx, c.host.opts.ConnectTimeout)
	defer cancel()
	transport, err := c.transport(ctx)
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(clientImplementation, &mcp.ClientOptions{
		Capabilities:               &mcp.ClientCapabilities{},
		ResourceUpdatedHandler:     c.resourceUpdated,
		ResourceListChangedHandler: c.resourceListChanged,
	})
	client.AddSendingMiddleware(hintMiddleware)
	var opts *mcp.ClientSessionOptions
	if v := c.host.opts.ProtocolVersion; v != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: v}
	}
	cs, err := client.Connect(ctx, transport, opts)
	if err != nil {
		return nil, classify(err, op, "", c.tap.takeStatus())
	}
	if st, ok := transport.(*stdioTransport); ok && st.cmd.Process != nil {
		c.mu.Lock()
		c.info.PID = st.cmd.Process.Pid
		c.mu.Unlock()
	}
	return cs, nil
}

func (c *Conn) resourceUpdated(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	c.hmu.Lock()
	fs := append([]func(string){}, c.onUpdate...)
	c.hmu.Unlock()
	for _, f := range fs {
		f(req.Params.URI)
	}
}

func (c *Conn) resourceListChanged(context.Context, *mcp.ResourceListChangedRequest) {
	c.hmu.Lock()
	fs := append([]func(){}, c.onList...)
	c.hmu.Unlock()
	for _, f := range fs {
		f()
	}
}

// transport builds the stdio or HTTP transport with the account's
// credentials and the VS Code inputs resolved.
func (c *Conn) transport(ctx context.Context) (mcp.Transport, error) {
	values := map[string]string{}
	for _, in := range c.Server.Inputs {
		v, err := c.host.inputValue(ctx, c.Server.Name, in)
		if err != nil {
			return nil, err
		}
		values[in.ID] = v
	}
	maxLine := int(c.host.opts.MaxBodyBytes*2) + 1<<20 // base64 and JSON escaping
	if c.Server.IsHTTP() {
		headers := expandAll(merge(c.Server.Headers, c.Account.Headers), values)
		return &mcp.StreamableClientTransport{
			Endpoint: expandInputs(c.Server.URL, values),
			HTTPClient: &http.Client{Transport: &tapRoundTripper{base: c.host.opts.HTTPTransport, headers: headers,
				tap: c.tap, maxBody: int64(maxLine)}},
			MaxRetries: 2,
		}, nil
	}
	args := make([]string, len(c.Server.Args))
	for i, a := range c.Server.Args {
		args[i] = expandInputs(a, values)
	}
	cmd := exec.Command(expandInputs(c.Server.Command, values), args...)
	cmd.Dir = c.Server.Cwd
	cmd.Env = os.Environ()
	for k, v := range expandAll(merge(c.Server.Env, c.Account.Env), values) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return &stdioTransport{cmd: cmd, tap: c.tap, maxLine: maxLine}, nil
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

func expandAll(m map[string]string, values map[string]string) map[string]string {
	for k, v := range m {
		m[k] = expandInputs(v, values)
	}
	return m
}

// call runs one request on a live session with the request timeout, and
// classifies its error. A transport failure drops the session so that the
// next call reconnects.
func call[T any](ctx context.Context, c *Conn, op, uri string, f func(context.Context, *mcp.ClientSession) (T, error)) (T, error) {
	var zero T
	cs, err := c.Session(ctx)
	if err != nil {
		return zero, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.host.opts.RequestTimeout)
	defer cancel()
	res, err := f(ctx, cs)
	if err != nil {
		err = classify(err, op, uri, c.tap.takeStatus())
		if errors.Is(err, ErrTransport) {
			c.markDead(cs, err)
		}
		return zero, err
	}
	return res, nil
}

// String names the connection for logs and messages.
func (c *Conn) String() string { return fmt.Sprintf("%s as %s", c.Server.Name, c.Account.Name) }

// partitionOf returns the private cache partition of acct on sc.
func partitionOf(sc ServerConfig, acct Account) string {
	return acct.Name + "@" + credentials(sc, acct)
}

// AccountOfPartition returns the account name of a cache partition.
func AccountOfPartition(partition string) string {
	if i := strings.LastIndexByte(partition, '@'); i >= 0 {
		return partition[:i]
	}
	return partition
}

// credentials fingerprints every credential a connection uses.
func credentials(sc ServerConfig, acct Account) string {
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
