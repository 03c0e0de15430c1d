package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// The body limit of these tests: MaxBodyBytes bounds a read's content, and
// the wire bound of one message (a JSON body, an SSE event, a stdio line)
// is twice that and a MiB, for base64 and JSON escaping (Conn.transport).
const (
	limitContent = 4 << 20
	limitWire    = 2*limitContent + 1<<20
	oversized    = 10 * limitWire
)

// peakHeap runs f while sampling the heap every millisecond, and returns
// how far HeapInuse rose above where it stood before f (after a GC), and
// how many bytes were allocated in all while f ran.
func peakHeap(f func()) (peak, total uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, alloc0 := m.HeapInuse, m.TotalAlloc
	var top atomic.Uint64
	top.Store(base)
	done, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > top.Load() {
				top.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-sampled
	runtime.ReadMemStats(&m)
	return top.Load() - base, m.TotalAlloc - alloc0
}

// sseOversize serves the raw mcptest server, except that resources/read
// is answered with an event stream whose one event carries a text of n
// bytes, generated as it is sent.
func sseOversize(t *testing.T, n int64) string {
	t.Helper()
	raw, err := mcptest.Handler(mcptest.ModeServerFault, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) != nil || req.Method != "resources/read" {
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			raw.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, `event: message`+"\ndata: "+`{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%q,"text":"`, req.ID, mcptest.RawResourceURI)
		chunk := strings.Repeat(mcptest.OversizeFill, 1024)
		for sent := int64(0); sent < n; sent += int64(len(chunk)) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return // the client stopped reading
			}
		}
		io.WriteString(w, `"}]}}`+"\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestOversizeRefusedWithinTwiceTheLimit reads a body ten times the wire
// bound over each path, and checks that it is refused as over the size
// limit, and that the heap never held more than twice the bound meanwhile.
func TestOversizeRefusedWithinTwiceTheLimit(t *testing.T) {
	for _, tt := range []struct {
		name string
		sc   func(t *testing.T) config.ServerConfig
	}{
		{"json", func(t *testing.T) config.ServerConfig {
			return mcptestHTTP(t, mcptest.ModeOversize, "--body-bytes", fmt.Sprint(oversized))
		}},
		{"sse", func(t *testing.T) config.ServerConfig {
			return config.ServerConfig{Name: "sse-oversize", URL: sseOversize(t, oversized)}
		}},
		{"stdio", func(t *testing.T) config.ServerConfig {
			return mcptestStdio(t, mcptest.ModeOversize, "--body-bytes", fmt.Sprint(oversized))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHost(t, &hostcore.HostOptions{MaxBodyBytes: limitContent})
			c := conn(t, h, tt.sc(t), "")
			if _, err := c.Session(context.Background()); err != nil {
				t.Fatal(err)
			}
			var err error
			peak, total := peakHeap(func() {
				_, err = c.ReadServer(context.Background(), mcptest.RawResourceURI)
			})
			var he *fault.Error
			if !errors.Is(err, fault.ErrProtocol) || !errors.As(err, &he) || !strings.Contains(he.Message(), "size limit") {
				t.Fatalf("read of %d bytes = %v; want a protocol error over the size limit", oversized, err)
			}
			t.Logf("%s: refused %d MiB against a wire bound of %d MiB: heap peak +%.1f MiB (%.2f× the bound), %.1f MiB allocated",
				tt.name, oversized>>20, limitWire>>20, float64(peak)/(1<<20), float64(peak)/limitWire, float64(total)/(1<<20))
			if peak > 2*limitWire {
				t.Errorf("the heap rose %d bytes refusing the body; want at most twice the bound, %d", peak, 2*limitWire)
			}
		})
	}
}
