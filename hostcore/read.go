package hostcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/wire"
)

// CacheHints are the server's ttlMs and cacheScope on a result, as sent.
type CacheHints struct {
	// TTL is ttlMs as a duration: absent, zero or negative all mean
	// "immediately stale" (0). A ttlMs too large for a Duration saturates
	// at the largest one rather than wrapping around; the cache then
	// clamps it to MaxTTL.
	TTL time.Duration
	// TTLMs is ttlMs as sent, 0 when absent.
	TTLMs int64
	// TTLSent is false when the result carried no ttlMs at all. Absent and
	// 0 mean the same to the cache, but a person asking why a body was not
	// stored is owed the difference.
	TTLSent bool
	// Scope is cacheScope as sent ("" when absent).
	Scope string
	// Note says what the host made of a hint of the wrong form (a ttlMs
	// written 1.5e4, or that is no integer; a cacheScope that is no
	// string): such a hint never fails the result (hintrepair.go).
	Note string
}

// ttlDuration converts ttlMs to a Duration without overflow: not positive
// is 0, and a value whose nanoseconds do not fit in an int64 (above about
// 292 years) is the largest Duration.
func ttlDuration(ms int64) time.Duration {
	switch {
	case ms <= 0:
		return 0
	case ms > math.MaxInt64/int64(time.Millisecond):
		return math.MaxInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// StaleReason says why a result with these hints is immediately stale,
// telling "the server sent no ttlMs" from "ttlMs 0" and from a negative
// one; "" when the TTL is positive.
func (h CacheHints) StaleReason() string {
	switch {
	case h.TTL > 0:
		return ""
	case !h.TTLSent:
		return "the server sent no ttlMs (immediately stale)"
	case h.TTLMs < 0:
		return fmt.Sprintf("the server's ttlMs is negative, %d (immediately stale)", h.TTLMs)
	}
	return "the server's ttlMs is 0 (immediately stale)"
}

// A resultBox carries a call's result and cache hints from the sending
// middleware back to the host, around go-sdk's own per-session cache.
type resultBox struct {
	res   mcp.Result
	hints CacheHints
}

type boxKey struct{}

// withBox returns ctx carrying a fresh box.
func withBox(ctx context.Context) (context.Context, *resultBox) {
	b := &resultBox{}
	return context.WithValue(ctx, boxKey{}, b), b
}

// hintMiddleware keeps go-sdk's own cache (for 2026-07-28 sessions) out of
// the way: that cache ignores cacheScope, hands every caller the same
// pointer, and stores every uri and cursor it ever saw until the same key is
// asked again, so a long listing or a large blob would stay in memory for
// the session's life. The middleware takes the cache hints aside, zeroes
// ttlMs so nothing the SDK keeps is ever served, and, for calls the host
// makes with a box, hands the real result over in the box and gives the SDK
// an empty one to keep. The host owns caching: every read is answered by the
// host's cache or by the server.
func hintMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		c, empty := cacheable(res)
		if c == nil {
			return res, nil
		}
		// go-sdk decodes an absent ttlMs as 0: only a non-zero value is
		// surely sent. ReadServer looks at the reply as sent to tell.
		ms := int64(c.TTLMs)
		hints := CacheHints{TTL: ttlDuration(ms), TTLMs: ms, TTLSent: ms != 0, Scope: c.CacheScope}
		c.TTLMs = 0
		if b, ok := ctx.Value(boxKey{}).(*resultBox); ok {
			b.res, b.hints = res, hints
			return empty, nil
		}
		return res, nil
	}
}

// cacheable returns the cache fields of a cacheable result and an empty
// result of the same type.
func cacheable(res mcp.Result) (*mcp.Cacheable, mcp.Result) {
	switch r := res.(type) {
	case *mcp.ReadResourceResult:
		return &r.Cacheable, &mcp.ReadResourceResult{}
	case *mcp.ListResourcesResult:
		return &r.Cacheable, &mcp.ListResourcesResult{}
	case *mcp.ListResourceTemplatesResult:
		return &r.Cacheable, &mcp.ListResourceTemplatesResult{}
	case *mcp.ListToolsResult:
		return &r.Cacheable, &mcp.ListToolsResult{}
	case *mcp.ListPromptsResult:
		return &r.Cacheable, &mcp.ListPromptsResult{}
	case *mcp.DiscoverResult:
		return &r.Cacheable, &mcp.DiscoverResult{}
	}
	return nil, nil
}

// boxed runs f with a box and returns the result the middleware put in it
// (or f's own, for a result go-sdk does not cache).
func boxed[R mcp.Result](ctx context.Context, f func(context.Context) (R, error)) (R, CacheHints, error) {
	ctx, b := withBox(ctx)
	res, err := f(ctx)
	if err != nil {
		return res, CacheHints{}, err
	}
	if r, ok := b.res.(R); ok {
		return r, b.hints, nil
	}
	return res, b.hints, nil
}

// ReadResult is one resources/read, as the host saw it.
type ReadResult struct {
	URI      string
	Contents []pack.Content
	// ProtocolVersion is the version negotiated with the server.
	ProtocolVersion string
	// Elapsed is the time the server took to answer.
	Elapsed time.Duration
	// Hints are the server's cache hints on this result.
	Hints CacheHints
	// Raw is the JSON-RPC exchange, for testers.
	Raw wire.Exchange
	// Complete is false for a result that took more than one round
	// (multi round-trip, mrtr.go): such results are never cacheable.
	Complete bool
	// Rounds are the multi round-trip rounds before the final result:
	// what the server asked and what the host answered.
	Rounds []InputRound
	// Cache says how the cache took part.
	Cache CacheInfo
	// room is the allocation of the one large blob of the result, with
	// room before it for the cache entry's head (bigread.go).
	room []byte
}

// Size is the total size of the contents in bytes.
func (r *ReadResult) Size() int64 {
	var n int64
	for _, c := range r.Contents {
		n += int64(c.Size())
	}
	return n
}

// ReadServer reads uri from the server (no cache involved) and checks the
// reply: a result (not null), a non-empty contents array, each entry with
// exactly one of text and blob, valid base64, its uri echoing the
// request's, and a total size within the host's limit. A server that
// declared no resources capability is never asked (an error of kind not
// found: "NAME offers no resources"). An input_required result is
// answered and sent again (mrtr.go) until it is complete; the rounds are
// in the result, which is then never cacheable.
func (c *Conn) ReadServer(ctx context.Context, uri string) (*ReadResult, error) {
	op := "reading " + uri
	if ok, err := c.Offers(ctx, FeatureResources); err != nil {
		return nil, err
	} else if !ok {
		e := newError(fault.KindNotFound, ErrNotOffered, "%s: %s offers no resources", op, c.Server.Name)
		e.URI = uri
		return nil, e
	}
	var hints CacheHints
	start := c.host.opts.Now.now()
	res, rounds, err := multiRound(ctx, c, op, func(ctx context.Context, answers mcp.InputResponseMap, state string) (*mcp.ReadResourceResult, error) {
		return call(ctx, c, op, uri, func(ctx context.Context, cs *mcp.ClientSession) (*mcp.ReadResourceResult, error) {
			res, h, err := boxed(ctx, func(ctx context.Context) (*mcp.ReadResourceResult, error) {
				return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri, InputResponses: answers, RequestState: state})
			})
			hints = h
			return res, err
		})
	})
	elapsed := c.host.opts.Now.now().Sub(start)
	if err != nil {
		if errors.Is(err, wire.ErrTooLarge) || frameTooLarge(err) {
			return nil, protocolError(uri, "%s: the reply is over the size limit of %s", op, pack.Quantity(int(c.host.opts.MaxBodyBytes), "byte"))
		}
		return nil, err
	}
	raw, _ := c.tap.Find("resources/read", uri)
	wire, ok := parseWireRead(raw)
	if ok {
		if wire.null {
			return nil, protocolError(uri, "%s: the server answered null instead of a result", op)
		}
		if sent, ok := readHints(wire.TTLMs, wire.CacheScope); ok {
			hints = sent // as sent: go-sdk saw them repaired, if they needed it
		}
	}
	out := &ReadResult{URI: uri, ProtocolVersion: c.Info().ProtocolVersion, Elapsed: elapsed, Hints: hints, Raw: raw,
		Complete: len(rounds) == 0, Rounds: rounds}
	if res == nil {
		return nil, protocolError(uri, "%s: the server answered null instead of a result", op)
	}
	out.room = fillElided(res, raw.Elided())
	if out.Contents, err = c.checkContents(uri, res.Contents, wire.Contents); err != nil {
		return nil, err
	}
	return out, nil
}

// fillElided puts back the large values the gate read out of the reply
// (hostcore/wire's bigread.go): go-sdk decoded them as empty. It returns the room of the
// blob when the reply holds one large blob, for the cache (encodeRead).
func fillElided(res *mcp.ReadResourceResult, values []wire.Elided) []byte {
	var room []byte
	if len(values) == 1 && values[0].Blob {
		room = values[0].Room
	}
	for _, v := range values {
		if v.Entry >= len(res.Contents) || res.Contents[v.Entry] == nil {
			continue
		}
		if rc := res.Contents[v.Entry]; v.Blob {
			rc.Blob = v.Data
		} else {
			rc.Text = v.Text
		}
	}
	return room
}

// rawContent is a contents entry as sent, to tell an absent field from an
// empty one (go-sdk's typed struct cannot).
type rawContent map[string]json.RawMessage

// wireRead is a read result as sent, for what go-sdk's typed struct cannot
// tell: an absent field from an empty one.
type wireRead struct {
	Contents   []rawContent    `json:"contents"`
	TTLMs      json.RawMessage `json:"ttlMs"` // nil when absent
	CacheScope json.RawMessage `json:"cacheScope"`
	null       bool            // the result was null
}

// parseWireRead reads the result of a raw exchange; ok is false when the
// tap kept too little of it to say.
func parseWireRead(raw wire.Exchange) (w wireRead, ok bool) {
	var env struct {
		Result *wireRead `json:"result"`
	}
	if raw.Response == nil || raw.Truncated || json.Unmarshal(raw.Response, &env) != nil {
		return wireRead{}, false
	}
	if env.Result == nil {
		return wireRead{null: true}, true
	}
	return *env.Result, true
}

func (c *Conn) checkContents(uri string, contents []*mcp.ResourceContents, wire []rawContent) ([]pack.Content, error) {
	if len(contents) == 0 {
		return nil, protocolError(uri, "reading %s: the server returned an empty contents array (a missing resource must be an error)", uri)
	}
	var total int64
	out := make([]pack.Content, 0, len(contents))
	for i, rc := range contents {
		if rc == nil {
			return nil, protocolError(uri, "reading %s: contents entry %d is null", uri, i)
		}
		hasText, hasBlob := rc.Text != "", rc.Blob != nil
		if i < len(wire) {
			_, hasText = wire[i]["text"]
			_, hasBlob = wire[i]["blob"]
		}
		if hasText == hasBlob {
			which := "neither text nor blob"
			if hasText {
				which = "both text and blob"
			}
			return nil, protocolError(uri, "reading %s: contents entry %d has %s", uri, i, which)
		}
		if rc.URI != uri && !(len(contents) > 1 && strings.HasPrefix(rc.URI, uri)) {
			return nil, protocolError(uri, "reading %s: the server answered for another uri, %q", uri, rc.URI)
		}
		content := pack.Content{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob, IsBlob: hasBlob}
		total += int64(content.Size())
		if total > c.host.opts.MaxBodyBytes {
			return nil, protocolError(uri, "reading %s: the body is over the size limit of %s", uri, pack.Quantity(int(c.host.opts.MaxBodyBytes), "byte"))
		}
		out = append(out, content)
	}
	return out, nil
}

// sdkFrameTooLarge is the text of go-sdk v1.8.0's unexported error for a
// stdio line over the transport's MaxLineLength.
const sdkFrameTooLarge = "inbound JSON-RPC frame exceeded the configured maximum line length"

// frameTooLarge reports whether err's chain holds go-sdk's frame-too-large
// error. go-sdk does not export it, so it is recognized by its own text,
// compared whole: never a search through text holding a URI or a server's
// message.
func frameTooLarge(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if errors.Unwrap(e) == nil && e.Error() == sdkFrameTooLarge {
			return true
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				if frameTooLarge(x) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// readServerGated is ReadServer once the read has its slots (see
// readgate.Gate): waiting for them counts against ctx like the read itself.
func (c *Conn) readServerGated(ctx context.Context, uri string) (*ReadResult, error) {
	release, err := c.host.reads.Acquire(ctx, c.identity+"\x00"+c.Account.Name)
	if err != nil {
		return nil, classify(err, "reading "+uri, uri, 0)
	}
	defer release()
	return c.ReadServer(ctx, uri)
}
