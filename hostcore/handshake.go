package hostcore

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
)

// go-sdk v1.8.0 opens every session by probing: server/discover first
// (2026-07-28), and initialize when the server refuses it. Every server
// not on 2026-07-28 refuses, so each connect to it costs a wasted round
// trip, and an HTTP+SSE server behind an automatic transport costs two
// failed POSTs more. The host remembers, per server identity, how the
// server was last opened, and goes straight there next time:
//
//   - An initialize server is remembered with the version it negotiated,
//     in memory and in the body cache (a public "handshake" entry keyed by
//     the server identity, for handshakeTTL), so that a new attachectl
//     process skips server/discover too. The next connect asks go-sdk for
//     that version, which sends initialize alone. Persisting is sound: the
//     entry holds only an opening, a version name and a transport, nothing
//     the server says about a resource and nothing of the credentials; the
//     opening does not vary with the account; and a wrong entry costs one
//     refused connect (then a fresh probe) or, for a server upgraded to
//     accept both openings, an older version until the entry expires.
//   - The HTTP+SSE transport found by the automatic probe is remembered the
//     same way.
//   - A discover server is remembered in memory for as long as the
//     discover result's ttlMs allows, and not persisted: go-sdk sends
//     server/discover first on every 2026-07-28 connect anyway, so the
//     memory saves no round trip; it says how the session was opened.
//
// When the remembered way fails with an answer that says the server
// changed (a refused method or version, an unreadable reply, a 4xx), the
// memory is dropped and the connect probes again, once. A server that is
// down (a transport failure) keeps its memory.

// The openings of a session.
const (
	OpeningDiscover   = "discover"   // 2026-07-28 server/discover
	OpeningInitialize = "initialize" // the initialize handshake of earlier versions
)

// handshakeTTL is how long a remembered initialize (or HTTP+SSE transport)
// is trusted before the host probes again.
const handshakeTTL = 24 * time.Hour

// handshakeMethod is the cache method of a remembered handshake.
const handshakeMethod = "handshake"

// Handshake is how a connection was opened, for people to see.
type Handshake struct {
	// Transport is TransportStdio, TransportStreamable, TransportSSE or
	// TransportInjected.
	Transport string `json:"transport"`
	// Opening is OpeningDiscover or OpeningInitialize.
	Opening string `json:"opening"`
	// Remembered is set when the connect went the way an earlier one found,
	// without probing.
	Remembered bool `json:"remembered"`
}

// handshakeRecord is what the host remembers of a server's handshake.
type handshakeRecord struct {
	Opening   string `json:"opening"`
	Version   string `json:"version"`
	Transport string `json:"transport,omitempty"` // TransportSSE when found by the probe
}

// usable reports whether r can steer a connect of this build of go-sdk.
func (r handshakeRecord) usable() bool {
	switch r.Opening {
	case OpeningDiscover:
		return true
	case OpeningInitialize:
		return slices.Contains(mcp.SupportedProtocolVersions(), r.Version)
	}
	return false
}

// handshakeMemory holds the remembered handshakes by server identity. It
// is safe for concurrent use.
type handshakeMemory struct {
	mu sync.Mutex
	m  map[string]rememberedHandshake
}

type rememberedHandshake struct {
	rec   handshakeRecord
	until time.Time
}

func (m *handshakeMemory) get(identity string, now time.Time) (handshakeRecord, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.m[identity]
	if !ok || !now.Before(r.until) {
		return handshakeRecord{}, false
	}
	return r.rec, true
}

func (m *handshakeMemory) put(identity string, rec handshakeRecord, until time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]rememberedHandshake{}
	}
	m.m[identity] = rememberedHandshake{rec, until}
}

func (m *handshakeMemory) drop(identity string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, identity)
}

func handshakeKey(identity string) CacheKey {
	return CacheKey{Server: identity, Method: handshakeMethod}
}

// recallHandshake returns the remembered handshake of a server: from
// memory, else from the cache.
func (h *Host) recallHandshake(ctx context.Context, identity, partition string) (handshakeRecord, bool) {
	now := h.opts.Now.now()
	if rec, ok := h.handshakes.get(identity, now); ok {
		return rec, true
	}
	if h.opts.Cache == nil {
		return handshakeRecord{}, false
	}
	e, ok, err := h.opts.Cache.Get(ctx, handshakeKey(identity), partition)
	if err != nil || !ok || e.Scope != ScopePublic || !fresh(e, now) {
		return handshakeRecord{}, false
	}
	var rec handshakeRecord
	if json.Unmarshal(e.Value, &rec) != nil || !rec.usable() {
		return handshakeRecord{}, false
	}
	h.handshakes.put(identity, rec, e.StoredAt.Add(e.TTL))
	return rec, true
}

// rememberHandshake records how a server was opened: for ttl in memory,
// and in the cache too when persist is set.
func (h *Host) rememberHandshake(ctx context.Context, identity string, rec handshakeRecord, ttl time.Duration, persist bool) {
	now := h.opts.Now.now()
	h.handshakes.put(identity, rec, now.Add(ttl))
	if !persist || h.opts.Cache == nil {
		return
	}
	value, err := json.Marshal(rec)
	if err != nil {
		return
	}
	e := CacheEntry{Key: handshakeKey(identity), Scope: ScopePublic, Value: value, StoredAt: now, TTL: ttl}
	if err := h.opts.Cache.Put(ctx, e); err != nil {
		h.cacheWriteFailed("remembering a server's handshake", "err", err)
	}
}

// forgetHandshake drops what the host remembers of a server's handshake.
func (h *Host) forgetHandshake(ctx context.Context, identity string) {
	h.handshakes.drop(identity)
	if h.opts.Cache != nil {
		if _, err := h.opts.Cache.Delete(ctx, handshakeKey(identity)); err != nil {
			h.cacheWriteFailed("forgetting a server's handshake", "err", err)
		}
	}
}

// dialPlan is how one connect attempt goes.
type dialPlan struct {
	transport  string // TransportStdio, TransportStreamable or TransportSSE
	version    string // asked of go-sdk; "" is its newest, which probes with server/discover
	fallback   bool   // after a 4xx on Streamable HTTP, try HTTP+SSE
	remembered bool
}

// plan is the attempt the config and what is remembered call for.
func (c *Conn) plan(rec handshakeRecord, known bool) dialPlan {
	p := dialPlan{transport: config.TransportStdio, version: c.host.opts.ProtocolVersion}
	if c.Server.IsHTTP() {
		p.transport = c.Server.Transport
		if p.transport == config.TransportAuto {
			p.transport, p.fallback = config.TransportStreamable, true
		}
	}
	if !known {
		return p
	}
	p.remembered = true
	if rec.Opening == OpeningInitialize {
		p.version = rec.Version
	}
	if rec.Transport == config.TransportSSE && c.Server.IsHTTP() && c.Server.Transport == config.TransportAuto {
		p.transport, p.fallback = config.TransportSSE, false
	}
	return p
}

// dialed is the outcome of a successful attempt.
type dialed struct {
	cs        *mcp.ClientSession
	transport mcp.Transport
	rec       handshakeRecord
	ttlMs     int64 // the discover result's, if any
}

// handshake opens a session the way the memory says, else by probing, and
// remembers what worked. A HostOptions.ProtocolVersion set by the caller
// wins over memory, which is then neither read nor written. Errors are
// classified.
func (c *Conn) handshake(ctx context.Context, auth *authContext) (*mcp.ClientSession, mcp.Transport, error) {
	h := c.host
	useMemory := h.opts.ProtocolVersion == ""
	var rec handshakeRecord
	known := false
	if useMemory {
		rec, known = h.recallHandshake(ctx, c.identity, auth.fingerprint)
	}
	p := c.plan(rec, known)
	d, err := c.dial(ctx, auth, p)
	if err != nil && known && ctx.Err() == nil && probeAgain(err) {
		h.log.Info("the remembered handshake failed; probing again", "server", c.Server.Name,
			"opening", rec.Opening, "version", rec.Version, "transport", rec.Transport, "err", auth.redactError(err))
		h.forgetHandshake(ctx, c.identity)
		p = c.plan(handshakeRecord{}, false)
		d, err = c.dial(ctx, auth, p)
	}
	if err != nil {
		return nil, nil, err
	}
	if useMemory {
		c.remember(ctx, p, rec, d)
	}
	c.mu.Lock()
	c.info.Handshake = Handshake{Transport: d.rec.Transport, Opening: d.rec.Opening, Remembered: p.remembered}
	c.mu.Unlock()
	return d.cs, d.transport, nil
}

// remember records what a connect found. What came from memory and worked
// is left to expire, so that the server is probed again in time.
func (c *Conn) remember(ctx context.Context, p dialPlan, was handshakeRecord, d dialed) {
	h := c.host
	rec := d.rec
	if rec.Transport != config.TransportSSE || c.Server.Transport != config.TransportAuto {
		rec.Transport = "" // only what the probe found is worth remembering
	}
	switch {
	case p.remembered && rec == was:
	case rec.Opening == OpeningInitialize || rec.Transport == config.TransportSSE:
		h.rememberHandshake(ctx, c.identity, rec, handshakeTTL, true)
	case d.ttlMs > 0:
		h.forgetHandshake(ctx, c.identity) // an initialize entry from before an upgrade
		h.rememberHandshake(ctx, c.identity, rec, min(ttlDuration(d.ttlMs), MaxTTL), false)
	default:
		h.forgetHandshake(ctx, c.identity)
	}
}

// dial makes one attempt: over the transport HostOptions.Transport gives,
// if it gives one; else over the plan's, and over HTTP+SSE after Streamable
// HTTP when the plan says to fall back and the POST got a 4xx.
func (c *Conn) dial(ctx context.Context, auth *authContext, p dialPlan) (dialed, error) {
	op := "connecting to " + c.Server.Name
	if t := c.injected(); t != nil {
		d, status, err := c.open(ctx, t, p.version)
		if err != nil {
			return dialed{}, c.explain(err, op, "", status, true)
		}
		d.rec.Transport = TransportInjected
		return d, nil
	}
	t := c.transport(auth)
	if p.transport == config.TransportSSE {
		t = c.sseTransport(auth)
	}
	d, status, err := c.open(ctx, t, p.version)
	if err != nil && p.fallback && legacyFallback(status.outcome().code) && status.outcome().refusal == nil && ctx.Err() == nil {
		c.host.log.Info("Streamable HTTP refused; trying HTTP+SSE", "server", c.Server.Name, "status", status.outcome().code)
		sse, sseStatus, sseErr := c.open(ctx, c.sseTransport(auth), p.version)
		if sseErr == nil {
			d, err, p.transport = sse, nil, config.TransportSSE
		} else {
			c.host.log.Info("HTTP+SSE refused too", "server", c.Server.Name,
				"err", auth.redactError(c.explain(sseErr, op, "", sseStatus, true)))
		}
	}
	if err != nil {
		return dialed{}, c.explain(err, op, "", status, true)
	}
	d.rec.Transport = p.transport
	return d, nil
}

// open connects one go-sdk client over t. The status holds what its HTTP
// requests met.
func (c *Conn) open(ctx context.Context, t mcp.Transport, version string) (dialed, *requestStatus, error) {
	ctx, status := withStatus(ctx)
	seen := &discoverSeen{}
	ctx = context.WithValue(ctx, discoverSeenKey{}, seen)
	client := mcp.NewClient(clientImplementation, c.clientOptions())
	// observeDiscover runs inside hintMiddleware, so it sees the ttlMs that
	// hintMiddleware then hides from go-sdk's own cache.
	client.AddSendingMiddleware(hintMiddleware, observeDiscover)
	client.AddReceivingMiddleware(c.observeAcks)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	d := dialed{transport: t, rec: handshakeRecord{Opening: OpeningInitialize}}
	cs, err := client.Connect(ctx, t, opts)
	if err != nil {
		return d, status, err
	}
	d.cs = cs
	if res := cs.InitializeResult(); res != nil {
		d.rec.Version = res.ProtocolVersion
	}
	if d.rec.Version >= protocolVersionDiscover {
		d.rec.Opening, d.ttlMs = OpeningDiscover, seen.ttlMs
	}
	return d, status, nil
}

// clientOptions are the go-sdk client's: the capabilities the host can
// back (elicitation, form mode, only with an Elicitor: elicit.go), and
// go-sdk's multi round-trip loop off, since the host runs its own
// (mrtr.go).
func (c *Conn) clientOptions() *mcp.ClientOptions {
	opts := &mcp.ClientOptions{
		Capabilities:               &mcp.ClientCapabilities{},
		ResourceUpdatedHandler:     c.resourceUpdated,
		ResourceListChangedHandler: c.resourceListChanged,
		ToolListChangedHandler:     c.toolListChanged,
		MultiRoundTrip:             &mcp.MultiRoundTripOptions{Disabled: true},
	}
	if c.host.opts.Elicit != nil {
		opts.Capabilities.Elicitation = elicitCapabilities()
		opts.ElicitationHandler = c.elicitHandler
	}
	return opts
}

// protocolVersionDiscover is the first version opened by server/discover.
const protocolVersionDiscover = "2026-07-28"

// discoverSeen holds the ttlMs of a connect's server/discover result.
type discoverSeen struct{ ttlMs int64 }

type discoverSeenKey struct{}

// observeDiscover records the ttlMs of a server/discover result in the
// connect's discoverSeen: go-sdk keeps it to itself.
func observeDiscover(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if d, ok := res.(*mcp.DiscoverResult); ok && err == nil {
			if seen, ok := ctx.Value(discoverSeenKey{}).(*discoverSeen); ok {
				seen.ttlMs = int64(d.TTLMs)
			}
		}
		return res, err
	}
}

// probeAgain reports whether a failed connect the memory steered says the
// server changed, rather than that it is down or refuses the credentials.
func probeAgain(err error) bool {
	var he *fault.Error
	if !errors.As(err, &he) {
		return false
	}
	switch he.Kind() {
	case fault.KindServerFault:
		return he.HTTPStatus == 0 // a refused method, not a server that fails or is busy
	case fault.KindProtocol, fault.KindVersionMismatch, fault.KindInvalidParams:
		return true
	case fault.KindTransport:
		return legacyFallback(he.HTTPStatus)
	}
	return false
}
