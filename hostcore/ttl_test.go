package hostcore_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
)

// withoutTTL is a read result marshalled without ttlMs, as a server of
// another make may send it (go-sdk always writes the field).
type withoutTTL struct{ *mcp.ReadResourceResult }

func (r *withoutTTL) MarshalJSON() ([]byte, error) {
	b, err := r.ReadResourceResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	delete(fields, "ttlMs")
	return json.Marshal(fields)
}

// ttlServer answers x://ttl/N with ttlMs N (public), and x://ttl/absent
// with no ttlMs at all.
func ttlServer(t *testing.T) config.ServerConfig {
	s := mcp.NewServer(&mcp.Implementation{Name: "ttl"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "x://ttl/{ms}", Name: "ttl"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			ms, _ := strings.CutPrefix(req.Params.URI, "x://ttl/")
			var n int
			json.Unmarshal([]byte(ms), &n)
			return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{TTLMs: n, CacheScope: "public"},
				Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "ttl " + ms}}}, nil
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.ReadResourceResult); ok && err == nil && req.(*mcp.ReadResourceRequest).Params.URI == "x://ttl/absent" {
				return &withoutTTL{r}, nil
			}
			return res, err
		}
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return config.ServerConfig{Name: "ttl", URL: srv.URL}
}

// TestTTLArithmetic reads bodies whose ttlMs spans every int64 value that
// matters: none is stored for 0, absent or negative (each said apart), and
// every positive one is stored for exactly min(ttlMs, MaxTTL), however
// large, without overflowing into a negative or tiny TTL.
func TestTTLArithmetic(t *testing.T) {
	clampMs := hostcore.MaxTTL.Milliseconds()
	const lastExactMs = math.MaxInt64 / int64(time.Millisecond) // the last ttlMs whose nanoseconds fit
	for _, tt := range []struct {
		name  string
		ms    string // the uri's last segment: ttlMs, or "absent"
		sent  bool
		hint  time.Duration // CacheHints.TTL
		kept  time.Duration // how long the cache keeps it; 0: not stored
		stale string        // in StaleReason
	}{
		{"absent", "absent", false, 0, 0, "sent no ttlMs"},
		{"zero", "0", true, 0, 0, "ttlMs is 0"},
		{"negative", "-5", true, 0, 0, "negative, -5"},
		{"min int64", "-9223372036854775808", true, 0, 0, "negative"},
		{"one", "1", true, time.Millisecond, time.Millisecond, ""},
		{"below the clamp", itoa(clampMs - 1), true, hostcore.MaxTTL - time.Millisecond, hostcore.MaxTTL - time.Millisecond, ""},
		{"at the clamp", itoa(clampMs), true, hostcore.MaxTTL, hostcore.MaxTTL, ""},
		{"above the clamp", itoa(clampMs + 1), true, hostcore.MaxTTL + time.Millisecond, hostcore.MaxTTL, ""},
		{"largest exact", itoa(lastExactMs), true, time.Duration(lastExactMs) * time.Millisecond, hostcore.MaxTTL, ""},
		{"first to overflow", itoa(lastExactMs + 1), true, math.MaxInt64, hostcore.MaxTTL, ""},
		{"max int64", itoa(math.MaxInt64), true, math.MaxInt64, hostcore.MaxTTL, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			sc := ttlServer(t) // closed after the host, which holds a stream open
			h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Now: clk.Now})
			c := conn(t, h, sc, "")
			ctx := context.Background()
			uri := "x://ttl/" + tt.ms
			res, err := c.Read(ctx, uri, hostcore.ReadUse)
			if err != nil {
				t.Fatal(err)
			}
			if res.Hints.TTL != tt.hint || res.Hints.TTLSent != tt.sent {
				t.Errorf("hints %+v; want TTL %v, sent %v", res.Hints, tt.hint, tt.sent)
			}
			if got := res.Hints.StaleReason(); !strings.Contains(got, tt.stale) || (tt.stale == "") != (got == "") {
				t.Errorf("StaleReason() = %q; want it to say %q", got, tt.stale)
			}
			if tt.kept == 0 {
				if res.Cache.NotStored == "" {
					t.Errorf("stored with ttlMs %s", tt.ms)
				}
				return
			}
			if res.Cache.NotStored != "" || res.Cache.TTL != tt.kept {
				t.Errorf("cache %+v; want stored for %v", res.Cache, tt.kept)
			}
			clk.Advance(tt.kept - time.Millisecond)
			if again, err := c.Read(ctx, uri, hostcore.ReadUse); err != nil || again.Cache.Status != hostcore.CacheHit {
				t.Errorf("%v later: %v, %v; want a hit", tt.kept-time.Millisecond, again.Cache, err)
			}
			clk.Advance(time.Millisecond)
			if again, err := c.Read(ctx, uri, hostcore.ReadUse); err != nil || again.Cache.Status != hostcore.CacheMiss {
				t.Errorf("%v later: %v, %v; want a miss", tt.kept, again.Cache, err)
			}
		})
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
