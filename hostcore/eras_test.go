package hostcore_test

import (
	"context"
	"errors"
	"flag"
	"net/http/httptest"
	"runtime"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/expand"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// mcptestStdio is a config entry for a test server mode over stdio.
func mcptestStdio(t testing.TB, mode string, flags ...string) config.ServerConfig {
	return config.ServerConfig{Name: mode, Command: binary(t, "internal/mcptest/mcptestd"),
		Args: append([]string{"--mode", mode, "--stdio"}, flags...)}
}

// mcptestHTTP serves a test server mode over loopback HTTP, in-process
// (mcptest.Handler, as mcptestd --http serves it), and returns its config
// entry. flags are mcptestd's.
func mcptestHTTP(t testing.TB, mode string, flags ...string) config.ServerConfig {
	t.Helper()
	h, err := mcptest.Handler(mode, mcptestOptions(t, flags...))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.CloseClientConnections() // a stream stays open for ever: close, do not drain
		srv.Close()
	})
	return config.ServerConfig{Name: mode, URL: srv.URL + "/mcp"}
}

// mcptestOptions are the options mcptestd's flags give.
func mcptestOptions(t testing.TB, flags ...string) *mcptest.Options {
	t.Helper()
	var o mcptest.Options
	fs := flag.NewFlagSet("mcptestd", flag.ContinueOnError)
	fs.IntVar(&o.Resources, "resources", 0, "")
	fs.IntVar(&o.PageSize, "page-size", 0, "")
	fs.IntVar(&o.Templates, "templates", 0, "")
	fs.DurationVar(&o.ListTTL, "list-ttl", 0, "")
	fs.Int64Var(&o.BodyBytes, "body-bytes", 0, "")
	fs.DurationVar(&o.Delay, "delay", 0, "")
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	return &o
}

func TestEras(t *testing.T) {
	for _, tt := range []struct{ mode, version string }{
		{mcptest.ModeV2026, mcptest.Version2026},
		{mcptest.ModeV2025Nov, mcptest.Version2025Nov},
		{mcptest.ModeV2025Jun, mcptest.Version2025Jun},
	} {
		for _, sc := range []config.ServerConfig{mcptestStdio(t, tt.mode), mcptestHTTP(t, tt.mode)} {
			name := tt.mode + "/stdio"
			if sc.IsHTTP() {
				name = tt.mode + "/http"
			}
			t.Run(name, func(t *testing.T) { checkEra(t, sc, tt.version) })
		}
	}
}

func checkEra(t *testing.T, sc config.ServerConfig, version string) {
	h := newHost(t, nil)
	c := conn(t, h, sc, "")
	ctx := context.Background()
	var resources []hostcore.Resource
	for r, err := range c.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		resources = append(resources, r)
	}
	if v := c.Info().ProtocolVersion; v != version {
		t.Errorf("negotiated %q; want %q", v, version)
	}
	if len(resources) != 3 {
		t.Fatalf("listed %d resources; want 3", len(resources))
	}
	byURI := map[string]hostcore.Resource{}
	for _, r := range resources {
		byURI[r.URI] = r
	}
	if p := byURI[mcptest.ReadmeURI].Annotations.Priority; p == nil || *p != 1 {
		t.Errorf("readme priority %v; want 1", p)
	}
	if p := byURI[mcptest.NotesURI].Annotations.Priority; p != nil {
		t.Errorf("notes priority %v; want absent", *p)
	}
	res, err := c.ReadServer(ctx, mcptest.LogoURI)
	if err != nil || !res.Contents[0].IsBlob || string(res.Contents[0].Blob) != string(mcptest.LogoPNG()) {
		t.Errorf("logo read: %v", err)
	}
	cat := firstKey(mcptest.Items())
	got, err := c.Complete(ctx, mcptest.ItemsTemplate, "name", "", map[string]string{"category": cat})
	if err != nil || len(got.Values) == 0 || len(got.Values) != len(mcptest.Items()[cat]) {
		t.Errorf("completion of name in %s = %v, %v; want %v", cat, got.Values, err, mcptest.Items()[cat])
	}
	uri, err := expand.URI(mcptest.ItemsTemplate, map[string]string{"category": cat, "name": got.Values[0]})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.ReadServer(ctx, uri); err != nil || res.Contents[0].Text != mcptest.ItemText(cat, got.Values[0]) {
		t.Errorf("template read %s: %v", uri, err)
	}
	if _, err := c.ReadServer(ctx, "test://items/none/none"); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("missing item: %v; want NotFound", err)
	}
}

func firstKey(m map[string][]string) string {
	best := ""
	for k := range m {
		if best == "" || k < best {
			best = k
		}
	}
	return best
}

func TestListsFiftyThousandResourcesInFlatMemory(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModePaged, "--resources", "50000", "--page-size", "100"), "")
	ctx := context.Background()
	var progress []hostcore.ListProgress
	var heapAt200, heapAt450 uint64
	n := 0
	for r, err := range c.Resources(ctx, func(p hostcore.ListProgress) { progress = append(progress, p) }) {
		if err != nil {
			t.Fatal(err)
		}
		if r.URI != mcptest.PagedURI(n) {
			t.Fatalf("resource %d is %s; want %s", n, r.URI, mcptest.PagedURI(n))
		}
		n++
		switch n {
		case 200 * 100:
			heapAt200 = heapInUse()
		case 450 * 100:
			heapAt450 = heapInUse()
		}
	}
	if n != 50000 || len(progress) != 500 || progress[499].Items != 50000 || progress[499].More || !progress[0].More {
		t.Fatalf("listed %d in %d pages (last progress %+v)", n, len(progress), progress[len(progress)-1])
	}
	// 250 more pages handed on must not have grown the heap by what they
	// weigh (about 250 × 100 resources × ~200 bytes = 5 MB); the raw tap's
	// bounded buffer is full by page 200.
	if grew := int64(heapAt450) - int64(heapAt200); grew > 4<<20 {
		t.Errorf("heap grew %d bytes between page 200 and page 450; pages handed on are being kept", grew)
	}
	t.Logf("heap at page 200: %d, at page 450: %d", heapAt200, heapAt450)
	var tmpls int
	for _, err := range c.Templates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tmpls++
	}
	if tmpls != 150 {
		t.Errorf("listed %d templates over pages; want 150", tmpls)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestNoOrphanChildAfterClose(t *testing.T) {
	h := hostcore.NewHost(nil, withInProcess(nil))
	c := conn(t, h, mcptestStdio(t, mcptest.ModeSpawner), "")
	res, err := c.ReadServer(context.Background(), mcptest.ChildPIDURI)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmtSscan(res.Contents[0].Text, &pid); err != nil || pid <= 0 {
		t.Fatalf("child pid %q: %v", res.Contents[0].Text, err)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("child %d is not running before close", pid)
	}
	h.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil && !isZombie(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("child %d still runs after the host closed the session", pid)
}

func TestTimeoutAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // the request timeout and the cancel run on synctest's clock
		h := newHost(t, &hostcore.HostOptions{RequestTimeout: 300 * time.Millisecond})
		c := conn(t, h, mcptestMem(t, mcptest.ModeSlow, &mcptest.Options{Delay: 30 * time.Second}), "")
		_, err := c.ReadServer(context.Background(), mcptest.RawResourceURI)
		if !errors.Is(err, fault.ErrTimeout) {
			t.Errorf("slow read = %v; want Timeout", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(100 * time.Millisecond); cancel() }()
		if _, err := c.ReadServer(ctx, mcptest.RawResourceURI); !errors.Is(err, fault.ErrCanceled) {
			t.Errorf("canceled read = %v; want Canceled", err)
		}
	})
}

func TestDeadServerThenReconnect(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestMem(t, mcptest.ModeDieOnRead, nil), "")
	_, err := c.ReadServer(context.Background(), mcptest.RawResourceURI)
	var he *fault.Error
	if !errors.Is(err, fault.ErrTransport) || !errors.As(err, &he) {
		t.Fatalf("read from a dying server = %v; want Transport", err)
	}
	// The next use starts the server again (and it dies again).
	_, err = c.ReadServer(context.Background(), mcptest.RawResourceURI)
	if !errors.Is(err, fault.ErrTransport) || c.Info().Connects != 2 {
		t.Errorf("second read = %v after %d connects; want a reconnect", err, c.Info().Connects)
	}
}
