package hostcore

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/singleflight"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/hooks"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/readgate"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/hostcore/subrecord"
	"github.com/attache/attache/hostcore/wire"
)

// HostOptions configures a Host. The zero value is usable.
type HostOptions struct {
	// ConnectTimeout bounds starting a server and the handshake; 0 means 30 s.
	ConnectTimeout time.Duration
	// RequestTimeout bounds one request; 0 means 60 s.
	RequestTimeout time.Duration
	// MaxBodyBytes bounds a read's total content; 0 means 32 MiB.
	MaxBodyBytes int64
	// ProtocolVersion asks for a protocol version; empty means the newest
	// go-sdk supports (the server may negotiate down).
	ProtocolVersion string
	// Builtin servers are offered beside the configured ones (the demo).
	Builtin []config.ServerConfig
	// BuiltinProviders are model providers offered after the configured
	// ones (DemoProvider); a configured provider of the same name hides
	// one.
	BuiltinProviders []models.Provider
	// PromptInput asks the person for a VS Code input's value. Values are
	// kept in memory for the Host's life and never written anywhere. Nil
	// makes a server that needs one fail to start with a clear error.
	PromptInput func(ctx context.Context, server string, in config.Input) (string, error)
	// HTTPTransport is the base round tripper for HTTP servers; nil means
	// http.DefaultTransport.
	HTTPTransport http.RoundTripper
	// Now is the clock; nil means time.Now.
	Now Clock
	// Logger receives the host's log; nil discards it. Secrets never reach it.
	Logger *slog.Logger
	// Sleep waits for d or until ctx is done (reconnect backoff); nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Cache keeps read bodies and list pages; nil means no cache (every
	// read goes to the server).
	Cache BodyCache
	// OAuth signs in to servers that ask for it; nil turns OAuth off.
	OAuth *signin.Options
	// Transport, if set, gives the transport of a connect instead of the
	// server's command or URL (see TransportFactory and Dialer): tests
	// connect in-process servers, as go-sdk's in-memory transports do.
	Transport TransportFactory
	// Elicit asks the person when a server asks for input (elicitation,
	// form mode: elicit.go). The host declares the elicitation capability
	// only when it is set; nil leaves it undeclared, and a server that asks
	// anyway gets an error.
	Elicit Elicitor
	// ReadsPerConn bounds the reads in flight to one server as one account,
	// and ReadsInAll those to all servers (see hostcore/readgate); 0 means
	// readgate.DefaultPerConn and DefaultInAll.
	ReadsPerConn, ReadsInAll int
	// Grants keeps the consent gate's "Always" grants (the state
	// package's store); nil keeps them in memory for the host's life.
	Grants consent.GrantStore
}

// Host owns the connections to MCP servers, one per (server, account). It
// is safe for concurrent use.
type Host struct {
	cfg  *config.Config
	opts HostOptions
	log  *slog.Logger

	mu     sync.Mutex
	conns  map[connKey]*Conn
	inputs map[string]map[string]string // server -> input id -> value, memory only

	// hurry is done when Shutdown runs out of time: stdio servers are then
	// stopped without grace, and HTTP requests cancelled.
	hurry    context.Context
	hurryNow context.CancelFunc
	// closing is done once Shutdown has begun: connects in flight stop.
	closing  context.Context
	closeNow context.CancelFunc
	closed   bool // guarded by mu: Shutdown has begun
	// bg counts the goroutines the host started and the connects in
	// flight, and asks the questions put to the person: Shutdown waits
	// for both (see background.go).
	bg, asks background
	guard    *watchdog // kills the stdio servers' groups if the host dies

	signIns *signin.Keeper // the grants and where each account's sign-in stands (signin.go)

	handshakes handshakeMemory // how each server was last opened, by identity

	flights singleflight.Group
	reads   *readgate.Gate // read slots, per connection and in all

	diskFullTold atomic.Bool          // a cache write found the disk full, and the log said so
	questions    map[string]*question // inputs being asked for, by server and id

	genMu       sync.Mutex
	generations map[CacheKey]uint64 // key -> epoch of its last invalidation; see generation
	genEpoch    uint64              // the last invalidation's epoch
	genReset    uint64              // the epoch at which generations was last dropped

	consent  *consent.Consent   // the one gate every tool call passes
	hostCall consent.HostCaller // approves the host's own calls; only hostcore holds it

	subs      *subrecord.Record            // the resource subscriptions, for people (package subrecord)
	ended     hooks.List[func(ContextEnd)] // told when an authorization context ends (contextend.go)
	onServers hooks.List[func()]           // told when the servers or a connection's state change (servers.go)
}

// connKey identifies a connection. creds fingerprints the credentials, so
// that an edited account gets a new connection rather than the old
// session with the old credentials.
type connKey struct{ server, identity, account, creds string }

// NewHost returns a host over cfg (which may be nil for ad-hoc servers only).
func NewHost(cfg *config.Config, opts *HostOptions) *Host {
	if cfg == nil {
		cfg = &config.Config{}
	}
	h := &Host{cfg: cfg, conns: map[connKey]*Conn{}, inputs: map[string]map[string]string{}, questions: map[string]*question{},
		generations: map[CacheKey]uint64{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.ConnectTimeout <= 0 {
		h.opts.ConnectTimeout = 30 * time.Second
	}
	if h.opts.RequestTimeout <= 0 {
		h.opts.RequestTimeout = 60 * time.Second
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = 32 << 20
	}
	if h.opts.HTTPTransport == nil {
		h.opts.HTTPTransport = http.DefaultTransport
	}
	if h.opts.Sleep == nil {
		h.opts.Sleep = sleepCtx
	}
	h.log = h.opts.Logger
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.hurry, h.hurryNow = context.WithCancel(context.Background())
	h.closing, h.closeNow = context.WithCancel(context.Background())
	h.signIns = signin.NewKeeper(h.opts.OAuth, signin.Env{Transport: h.opts.HTTPTransport,
		Timeout: h.opts.RequestTimeout, Now: h.opts.Now.now, Log: h.log, Hurry: h.hurry})
	h.guard = &watchdog{log: h.log}
	h.reads = readgate.New(h.opts.ReadsPerConn, h.opts.ReadsInAll)
	h.consent, h.hostCall = consent.New(consent.Options{Grants: h.opts.Grants, Now: h.opts.Now,
		Find: func(name string) (config.ServerConfig, error) { return h.cfg.Find(name, h.opts.Builtin...) }, IsAdHoc: IsAdHocName})
	h.subs = subrecord.New(h.opts.Now)
	return h
}

// Subscriptions returns the host's record of its resource subscriptions.
func (h *Host) Subscriptions() *subrecord.Record { return h.subs }

// Consent returns the host's consent gate, which every tool call passes.
func (h *Host) Consent() *consent.Consent { return h.consent }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Config returns the host's config.
func (h *Host) Config() *config.Config { return h.cfg }

// Clock returns the host's clock (HostOptions.Now; nil means time.Now),
// for the features over the host that keep its time.
func (h *Host) Clock() Clock { return h.opts.Now }

// Servers returns every server the host knows: configured, imported, built in.
func (h *Host) Servers() []config.ServerConfig { return h.cfg.All(h.opts.Builtin...) }

// Conn returns the connection to the named server as account ("" means the
// server's first account). It does not connect yet: the first use does.
func (h *Host) Conn(server, account string) (*Conn, error) {
	sc, err := h.cfg.Find(server, h.opts.Builtin...)
	if err != nil {
		return nil, err
	}
	return h.ConnFor(sc, account)
}

// ConnFor returns the connection to an ad-hoc or configured server.
func (h *Host) ConnFor(sc config.ServerConfig, account string) (*Conn, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	acct, err := sc.Account(account)
	if err != nil {
		return nil, err
	}
	key := connKey{sc.Name, sc.Identity(), acct.Name, credentials(sc, acct)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, ok := h.conns[key]; ok {
		return c, nil
	}
	c := &Conn{host: h, key: key, Server: sc, Account: acct, tap: wire.NewTap(h.opts.Now), identity: key.identity,
		connecting: make(chan struct{}, 1)}
	if h.closed {
		c.closed, c.info.State = true, StateClosed // Close is final: a closed host connects to nothing
		return c, nil
	}
	c.OnResourceUpdated(func(uri string) { h.Invalidate(context.Background(), c.readKey(uri)) })
	c.OnResourceListChanged(func() { h.invalidateMethod(context.Background(), key.identity, "resources/list") })
	c.OnResourceUpdated(func(uri string) { h.subs.Updated(c, uri) })
	h.conns[key] = c
	return c, nil
}

// Close closes every connection (and ends every stdio server process),
// all at once. A stdio server gets a grace period to exit after its stdin
// closes, and another after SIGTERM, before its process group is killed.
func (h *Host) Close() error { return h.Shutdown(context.Background()) }

// Shutdown is Close within ctx: once ctx is done, stdio servers still
// running are stopped without the grace periods (SIGTERM, then SIGKILL
// within a tenth of a second) and HTTP requests still running (the
// session's DELETE) are cancelled. A command out of time or interrupted
// thus ends at once, and leaves no server behind.
//
// Connects in flight stop, and Shutdown returns only once every goroutine
// the host started has ended (a session's watcher, a resubscription and
// the OnConnect hooks it runs, the close of a dropped session, a stdio
// server's process, the watchdog); a question put to the person for an
// input (PromptInput) is withdrawn, and waited for until ctx is done. From
// then on the host connects to nothing: every connection it returns is
// closed.
func (h *Host) Shutdown(ctx context.Context) error {
	defer context.AfterFunc(ctx, h.hurryNow)()
	h.mu.Lock()
	h.closed = true
	conns := make([]*Conn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.conns = map[connKey]*Conn{}
	for _, q := range h.questions {
		q.cancel() // no one will use the answer
	}
	h.mu.Unlock()
	h.closeNow()
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() { errs[i] = c.Close() })
	}
	wg.Wait()
	h.guard.close()
	h.bg.wait(context.Background()) // the hurry, once ctx is done, ends what is left
	h.asks.wait(ctx)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// inputValue returns the value of a VS Code input for server, asking once:
// concurrent connections that need the same input share one question, and
// each stops waiting when its own context ends. The question itself (a
// dialog, a terminal prompt) is withdrawn when no one waits any more.
func (h *Host) inputValue(ctx context.Context, server string, in config.Input) (string, error) {
	if h.opts.PromptInput == nil {
		h.mu.Lock()
		v, ok := h.inputs[server][in.ID]
		h.mu.Unlock()
		if ok {
			return v, nil
		}
		return "", newError(fault.KindUsage, nil, "server %q needs the input %q (%s) and nothing can ask for it", server, in.ID, in.Description)
	}
	key := server + "\x00" + in.ID
	h.mu.Lock()
	if v, ok := h.inputs[server][in.ID]; ok {
		h.mu.Unlock()
		return v, nil
	}
	if h.closed {
		h.mu.Unlock()
		return "", newError(fault.KindCanceled, nil, "asking for input %s: the host is closed", in.ID)
	}
	q := h.questions[key]
	if q == nil {
		qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		q = &question{done: make(chan struct{}), cancel: cancel}
		h.questions[key] = q
		h.asks.goCounted(func() { h.ask(qctx, key, server, in, q) })
	}
	q.waiters++
	h.mu.Unlock()
	select {
	case <-q.done:
		return q.value, q.err
	case <-ctx.Done():
		h.mu.Lock()
		if q.waiters--; q.waiters == 0 && h.questions[key] == q {
			delete(h.questions, key)
			q.cancel()
		}
		h.mu.Unlock()
		return "", classify(ctx.Err(), "asking for input "+in.ID, "", 0)
	}
}

// question is one VS Code input being asked for.
type question struct {
	done    chan struct{}
	value   string
	err     error
	waiters int // guarded by Host.mu
	cancel  context.CancelFunc
}

// ask puts the question to the person and records the answer.
func (h *Host) ask(ctx context.Context, key, server string, in config.Input, q *question) {
	defer q.cancel()
	v, err := h.opts.PromptInput(ctx, server, in)
	if err != nil {
		err = fmt.Errorf("asking for input %q: %w", in.ID, err)
	}
	h.mu.Lock()
	if err == nil {
		if h.inputs[server] == nil {
			h.inputs[server] = map[string]string{}
		}
		h.inputs[server][in.ID] = v
	}
	if h.questions[key] == q {
		delete(h.questions, key)
	}
	h.mu.Unlock()
	q.value, q.err = v, err
	close(q.done)
}

// clientImplementation is how the host introduces itself to servers.
var clientImplementation = &mcp.Implementation{Name: "attache", Title: "Attaché", Version: "0.1.0"}

// Builtin returns the built-in servers.
func (h *Host) Builtin() []config.ServerConfig { return h.opts.Builtin }
