package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/wire"
)

// listServer serves n resources one per page with an hour-long public
// hint on list pages, counts list requests, and can be told to refuse every
// cursor (as a server whose pagination changed would).
type listServer struct {
	srv           *mcp.Server
	http          *httptest.Server
	lists         atomic.Int32
	refuseCursors atomic.Bool
}

func newListServer(t *testing.T, n int) *listServer {
	ls := &listServer{}
	ls.srv = mcp.NewServer(&mcp.Implementation{Name: "lists"}, &mcp.ServerOptions{
		PageSize: 1,
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ListResourcesRequest); ok {
				c.TTLMs, c.CacheScope = 3_600_000, "public"
			}
		},
	})
	for i := range n {
		ls.addResource(i)
	}
	ls.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				ls.lists.Add(1)
				if p, ok := req.GetParams().(*mcp.ListResourcesParams); ok && p.Cursor != "" && ls.refuseCursors.Load() {
					return nil, &jsonrpc.Error{Code: -32602, Message: "Invalid cursor"}
				}
			}
			return next(ctx, method, req)
		}
	})
	ls.http = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ls.srv }, nil))
	t.Cleanup(func() { ls.http.CloseClientConnections(); ls.http.Close() })
	return ls
}

func (ls *listServer) addResource(i int) {
	uri := fmt.Sprintf("x://r/%d", i)
	ls.srv.AddResource(&mcp.Resource{URI: uri, Name: uri}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: uri}}}, nil
	})
}

func listAll(t *testing.T, c *hostcore.Conn) (int, error) {
	n := 0
	for _, err := range c.Resources(context.Background(), nil) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func TestInvalidCursorDropsEveryPage(t *testing.T) {
	ls := newListServer(t, 3)
	bodies := openCache(t, t.TempDir())
	h := newHost(t, &hostcore.HostOptions{Cache: bodies})
	sc := config.ServerConfig{Name: "lists", URL: ls.http.URL}
	c := conn(t, h, sc, "")
	if n, err := listAll(t, c); n != 3 || err != nil {
		t.Fatalf("first listing: %d, %v", n, err)
	}
	if n, _ := listAll(t, c); n != 3 || ls.lists.Load() != 3 {
		t.Fatalf("second listing made %d requests in all; want the 3 of the first (cached pages)", ls.lists.Load())
	}
	// The server's pagination changes, and the host learns it on a page it
	// no longer has fresh.
	ls.refuseCursors.Store(true)
	st, _ := bodies.Stats(context.Background(), hostcore.CacheFilter{})
	page2 := hostcore.CacheKey{Server: sc.Identity(), Method: "resources/list", Param: secondCursor(t, c)}
	h.Invalidate(context.Background(), page2)
	// Page 1 comes from the cache, its cursor is refused: the listing starts
	// again from a fresh page 1, whose cursor the server refuses too, which
	// is then the server's fault.
	_, err := listAll(t, c)
	if !errors.Is(err, fault.ErrServerFault) || !strings.Contains(err.Error(), "refused the cursor it sent") {
		t.Fatalf("listing past a refused cursor: %v; want the server's fault", err)
	}
	after, _ := bodies.Stats(context.Background(), hostcore.CacheFilter{})
	// Besides the pages, the cache holds the server's remembered handshake
	// (an initialize server), which a refused cursor leaves alone.
	if st.Entries != 3+1 || after.Entries != 0+1 {
		t.Errorf("cached entries before %d, after the invalid cursor %d; want 3 pages and the handshake, then the handshake", st.Entries, after.Entries)
	}
}

// secondCursor returns the cursor the first page handed out, from the tap.
func secondCursor(t *testing.T, c *hostcore.Conn) string {
	for _, m := range c.Tap().Messages() {
		var env struct {
			Result struct {
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if m.Dir == wire.Received && jsonUnmarshal(m.Raw, &env) == nil && env.Result.NextCursor != "" {
			return env.Result.NextCursor
		}
	}
	t.Fatal("no cursor in the tap")
	return ""
}

func TestListChangedEvictsPages(t *testing.T) {
	ls := newListServer(t, 2)
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), ProtocolVersion: "2025-11-25"})
	c := conn(t, h, config.ServerConfig{Name: "lists", URL: ls.http.URL}, "")
	changed := make(chan struct{}, 10)
	c.OnResourceListChanged(func() { changed <- struct{}{} })
	if n, err := listAll(t, c); n != 2 || err != nil {
		t.Fatalf("first listing: %d, %v", n, err)
	}
	ls.addResource(2) // the server sends notifications/resources/list_changed
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed arrived")
	}
	if n, err := listAll(t, c); n != 3 || err != nil {
		t.Errorf("listing after list_changed: %d, %v; want the new resource (pages evicted)", n, err)
	}
}

// lookupCounter counts the list pages looked up in the cache it wraps.
type lookupCounter struct {
	hostcore.BodyCache
	pages atomic.Int32
}

func (l *lookupCounter) Get(ctx context.Context, key hostcore.CacheKey, partition string) (hostcore.CacheEntry, bool, error) {
	if key.Method == "resources/list" {
		l.pages.Add(1)
	}
	return l.BodyCache.Get(ctx, key, partition)
}

// A listing whose page came from the server takes the pages after it from
// the server too, fresh in the cache or not: it follows the server's
// current cursors, and a page costs no cache lookup. A listing served
// from the cache looks up every page.
func TestListingThatWentToTheServerStaysThere(t *testing.T) {
	ls := newListServer(t, 3)
	bodies := &lookupCounter{BodyCache: openCache(t, t.TempDir())}
	h := newHost(t, &hostcore.HostOptions{Cache: bodies})
	sc := config.ServerConfig{Name: "lists", URL: ls.http.URL}
	c := conn(t, h, sc, "")
	steps := []struct {
		name                    string
		before                  func()
		wantRequests, wantLooks int32 // in all, so far
	}{
		{"first listing: page 1 missed, the rest not looked up", nil, 3, 1},
		{"second listing: every page a hit", nil, 3, 4},
		{"page 1 dropped: the server for every page", func() {
			h.Invalidate(context.Background(), hostcore.CacheKey{Server: sc.Identity(), Method: "resources/list"})
		}, 6, 5},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		if n, err := listAll(t, c); n != 3 || err != nil {
			t.Fatalf("%s: %d resources, %v", s.name, n, err)
		}
		if got, looks := ls.lists.Load(), bodies.pages.Load(); got != s.wantRequests || looks != s.wantLooks {
			t.Errorf("%s: %d list requests and %d page lookups in all; want %d and %d", s.name, got, looks, s.wantRequests, s.wantLooks)
		}
	}
}
