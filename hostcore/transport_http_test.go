package hostcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// TestHTTPStatusesSayWhatHappened: a URL that is not an MCP endpoint is a
// transport failure that names the URL (without its secrets) and never
// blames the server's authors; a 5xx is a server fault; a 429 is a busy
// server.
func TestHTTPStatusesSayWhatHappened(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		ct     string
		kind   error
		says   []string
	}{
		{"404", http.StatusNotFound, "text/plain", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 404)", "check the URL"}},
		{"405", http.StatusMethodNotAllowed, "text/plain", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 405)"}},
		{"400", http.StatusBadRequest, "text/plain", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 400)", "check the URL"}},
		{"400 as a web page", http.StatusBadRequest, "text/html", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 400)"}},
		{"415", http.StatusUnsupportedMediaType, "text/html", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 415)"}},
		{"501", http.StatusNotImplemented, "text/html", fault.ErrTransport, []string{"no MCP endpoint at {url}", "(HTTP 501)"}},
		{"500 as a web page", http.StatusInternalServerError, "text/html", fault.ErrServerFault, []string{"the server failed (HTTP 500)"}},
		{"a web page", http.StatusOK, "text/html; charset=utf-8", fault.ErrTransport, []string{"{url} answered with text/html, which is not MCP", "check the URL"}},
		{"no content type", http.StatusOK, "", fault.ErrTransport, []string{"{url} answered with no Content-Type, which is not MCP"}},
		{"500", http.StatusInternalServerError, "text/plain", fault.ErrServerFault, []string{"the server failed (HTTP 500)"}},
		{"503", http.StatusServiceUnavailable, "text/plain", fault.ErrServerFault, []string{"the server failed (HTTP 503)"}},
		{"429", http.StatusTooManyRequests, "text/plain", fault.ErrServerFault, []string{"the server is busy (HTTP 429 Too Many Requests)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = []string{tt.ct}
				w.WriteHeader(tt.status)
				io.WriteString(w, "<html>not an MCP server</html>")
			}))
			defer srv.Close()
			shown := srv.URL + "/wrong/path"
			u := strings.Replace(srv.URL, "http://", "http://someone:s3cret@", 1) + "/wrong/path?key=k3y"
			h := newHost(t, &hostcore.HostOptions{ConnectTimeout: 10 * time.Second})
			_, err := conn(t, h, config.ServerConfig{Name: "wrong", URL: u}, "").Session(context.Background())
			var he *fault.Error
			if !errors.Is(err, tt.kind) || !errors.As(err, &he) {
				t.Fatalf("connect = %v; want %v", err, tt.kind)
			}
			for _, want := range tt.says {
				if want = strings.Replace(want, "{url}", shown, 1); !strings.Contains(he.Message(), want) {
					t.Errorf("message %q; want it to say %q", he.Message(), want)
				}
			}
			if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "k3y") {
				t.Errorf("the error shows the URL's secrets: %v", err)
			}
			if strings.Contains(he.Hint(), "authors") {
				t.Errorf("hint %q blames the server's authors", he.Hint())
			}
		})
	}
}

// busyOnce is an MCP server (the raw mcptest server, slow by a
// millisecond) that answers the first requests of method with 429 and
// retryAfter, and records the body of every request of method.
type busyOnce struct {
	method, retryAfter string
	times              int // how many requests of method get 429

	mu     sync.Mutex
	bodies [][]byte // of method's requests
}

func (b *busyOnce) serve(t *testing.T) string {
	t.Helper()
	raw, err := mcptest.Handler(mcptest.ModeSlow, &mcptest.Options{Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct{ Method string }
		json.Unmarshal(body, &req)
		if req.Method == b.method {
			b.mu.Lock()
			b.bodies = append(b.bodies, body)
			busy := len(b.bodies) <= b.times
			b.mu.Unlock()
			if busy {
				if b.retryAfter != "" {
					w.Header().Set("Retry-After", b.retryAfter)
				}
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
		}
		raw.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func (b *busyOnce) requests() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([][]byte(nil), b.bodies...)
}

// TestRetryAfterHonouredOnce: a 429 with a Retry-After (seconds or an HTTP
// date) is waited for, as asked, and the same request is sent once more;
// a wait over 30 s, or past the request's deadline, is not waited for, and
// a second 429 stands.
func TestRetryAfterHonouredOnce(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	for _, tt := range []struct {
		name       string
		retryAfter string
		times      int
		timeout    time.Duration
		waits      []time.Duration
		fails      string // "" when the connect succeeds
	}{
		{"seconds", "7", 1, 0, []time.Duration{7 * time.Second}, ""},
		{"HTTP date", now.Add(5 * time.Second).Format(http.TimeFormat), 1, 0, []time.Duration{5 * time.Second}, ""},
		{"date passed", now.Add(-time.Hour).Format(http.TimeFormat), 1, 0, []time.Duration{0}, ""},
		{"busy again", "1", 2, 0, []time.Duration{time.Second}, "busy (HTTP 429 Too Many Requests)"},
		{"too long", "120", 1, 0, nil, "asks to wait 2m0s, longer than the host waits"},
		{"past the deadline", "10", 1, 3 * time.Second, nil, "asks to wait 10s"},
		{"no Retry-After", "", 1, 0, nil, "busy (HTTP 429 Too Many Requests)"},
		{"unreadable", "soon", 1, 0, nil, "busy (HTTP 429 Too Many Requests)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := &busyOnce{method: "initialize", retryAfter: tt.retryAfter, times: tt.times}
			var mu sync.Mutex
			var waits []time.Duration
			h := newHost(t, &hostcore.HostOptions{
				ConnectTimeout: tt.timeout, Now: func() time.Time { return now },
				Sleep: func(ctx context.Context, d time.Duration) error {
					mu.Lock()
					defer mu.Unlock()
					waits = append(waits, d)
					return ctx.Err()
				}})
			_, err := conn(t, h, config.ServerConfig{Name: "busy", URL: b.serve(t)}, "").Session(context.Background())
			switch {
			case tt.fails == "" && err != nil:
				t.Fatalf("connect = %v; want it to succeed after the wait", err)
			case tt.fails != "" && (!errors.Is(err, fault.ErrServerFault) || !strings.Contains(err.Error(), tt.fails)):
				t.Fatalf("connect = %v; want a server fault saying %q", err, tt.fails)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(waits) != len(tt.waits) || len(waits) > 0 && waits[0] != tt.waits[0] {
				t.Errorf("waited %v; want %v", waits, tt.waits)
			}
			reqs := b.requests()
			if want := 1 + len(tt.waits); len(reqs) != want {
				t.Fatalf("the server got %d initialize requests; want %d", len(reqs), want)
			}
			if len(reqs) == 2 && !bytes.Equal(reqs[0], reqs[1]) {
				t.Errorf("the retry sent %s; want the same request again, %s", reqs[1], reqs[0])
			}
		})
	}
}

// TestRetryAfterOnARead waits for real: the read is retried a second later
// and succeeds.
func TestRetryAfterOnARead(t *testing.T) {
	b := &busyOnce{method: "resources/read", retryAfter: "1", times: 1}
	c := conn(t, newHost(t, nil), config.ServerConfig{Name: "busy", URL: b.serve(t)}, "")
	if _, err := c.Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := c.ReadServer(context.Background(), mcptest.RawResourceURI)
	if err != nil || res.Contents[0].Text != mcptest.RawText {
		t.Fatalf("read after a 429 = %v, %v; want the resource", res, err)
	}
	if elapsed := time.Since(start); elapsed < time.Second {
		t.Errorf("the read took %v; want the second Retry-After asked for first", elapsed)
	}
	if n := len(b.requests()); n != 2 {
		t.Errorf("the server got %d reads; want 2", n)
	}
}
