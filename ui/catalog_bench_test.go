package ui

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/icon"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/internal/testbin"
)

// catalogSize is the large catalog: 50,000 resources, 100 a page.
const catalogSize = 50_000

// catalogServer is mcptestd's paged mode with the large catalog.
func catalogServer(b *testing.B) config.ServerConfig {
	return config.ServerConfig{Name: "catalog", Title: "catalog", Source: "builtin",
		Command: testbin.Build(b, "internal/mcptest/mcptestd"),
		Args:    []string{"--mode", "paged", "--resources", fmt.Sprint(catalogSize), "--page-size", "100", "--stdio"}}
}

// catalogApp is the window over a fresh host, cache and state, in Fyne's
// test driver, with the catalog server built in.
type catalogApp struct {
	b   *testing.B
	app *App
	tab *resourcesTab
}

func newCatalogApp(b *testing.B, sc config.ServerConfig) *catalogApp {
	dir := b.TempDir()
	fa := test.NewTempApp(b)
	cfg, err := config.LoadConfig(filepath.Join(dir, "config.json"))
	if err != nil {
		b.Fatal(err)
	}
	cache, bodies, err := hostcache.Open(dir, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, err := state.Open(state.DefaultPath(dir), nil)
	if err != nil {
		b.Fatal(err)
	}
	host := hostcore.NewHost(cfg, &hostcore.HostOptions{Cache: bodies, Builtin: []config.ServerConfig{sc}})
	ca := &catalogApp{b: b}
	locked(func() {
		ca.app = New(fa, hostcore.NewConversations(host, st), &Options{Icons: &icon.Fetcher{}})
		ca.tab = ca.app.picker.resources
	})
	b.Cleanup(func() {
		locked(ca.app.Close)
		host.Close()
		st.Close()
		cache.Close()
	})
	ca.settle()
	return ca
}

// locked runs f as the main goroutine would (see mainMu).
func locked(f func()) {
	mainMu.Lock()
	defer mainMu.Unlock()
	f()
}

func (ca *catalogApp) settle() {
	deadline := time.Now().Add(5 * time.Minute)
	for !ca.app.Idle() {
		if time.Now().After(deadline) {
			ca.b.Fatal("the window did not settle")
		}
		time.Sleep(time.Millisecond)
	}
}

// list lists the catalog in the resources tab and waits for its last page.
func (ca *catalogApp) list() {
	var err error
	locked(func() { err = ca.app.SelectServer("catalog", "") })
	if err != nil {
		ca.b.Fatal(err)
	}
	ca.settle()
	if n := len(ca.tab.all); n != catalogSize {
		ca.b.Fatalf("%d resources listed, want %d; pages %q empty %q", n, catalogSize, ca.tab.pages.Text, ca.tab.empty.Text)
	}
}

// BenchmarkCatalogFirstRows: how long after the first page of the 50,000
// arrives its rows are on the list (ms/first-rows, the slowest of b.N
// listings, each in a fresh window).
func BenchmarkCatalogFirstRows(b *testing.B) {
	sc := catalogServer(b)
	var worst time.Duration
	for b.Loop() {
		b.StopTimer()
		ca := newCatalogApp(b, sc)
		var first time.Duration
		locked(func() { ca.tab.firstRows = func(d time.Duration) { first = d } })
		b.StartTimer()
		ca.list()
		var rows int
		locked(func() { rows = len(ca.tab.shown) })
		if first == 0 || rows == 0 {
			b.Fatal("the first rows were never shown")
		}
		worst = max(worst, first)
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms/first-rows")
}

// BenchmarkCatalogFilter types searches into the box over the 50,000
// listed resources, a rune at a time, and reports the 95th percentile and
// the slowest of the keystrokes (each filters and refreshes the list),
// with backspaces between searches.
func BenchmarkCatalogFilter(b *testing.B) {
	ca := newCatalogApp(b, catalogServer(b))
	ca.list()
	searches := []string{"resource 4", "resource-49", "page 12", "zzz", "res 1", "4999"}
	var took []time.Duration
	var matched int
	for b.Loop() {
		for _, s := range searches {
			for _, r := range s {
				t0 := time.Now()
				locked(func() { ca.tab.search.TypedRune(r) })
				took = append(took, time.Since(t0))
			}
			locked(func() { matched += len(ca.tab.shown) })
			locked(func() { ca.tab.search.SetText("") })
		}
	}
	if matched == 0 {
		b.Fatal("no search matched anything: the benchmark measured nothing")
	}
	slices.Sort(took)
	b.ReportMetric(ms(took[len(took)*95/100]), "ms/keystroke-p95")
	b.ReportMetric(ms(took[len(took)-1]), "ms/keystroke-max")
}

// BenchmarkCatalogListing lists the 50,000 resources through the app (the
// host, its cache and the tab) and through a bare go-sdk client, each
// against a fresh server process of the same build, and reports the
// host's overhead as a share of the bare listing (%overhead). To be fair
// on a machine whose load drifts, the bare listing runs just before and
// just after the app's and counts as the mean of the two, and every
// listing starts after a collection, so that none pays for another's
// garbage. Beside wall time it reports CPU time, steadier on a busy
// machine: the test process's in each listing (cpu-ms/app-listing,
// cpu-ms/bare-listing), and the server process's in the bare listing
// (cpu-ms/server), where the platform tells it.
func BenchmarkCatalogListing(b *testing.B) {
	sc := catalogServer(b)
	var app, bare, appCPU, bareCPU, serverCPU time.Duration
	for b.Loop() {
		b.StopTimer()
		ca := newCatalogApp(b, sc)
		b.StartTimer()
		before := timeBare(b, sc)
		took := timed(b, "app", ca.list)
		after := timeBare(b, sc)
		app += took.wall
		appCPU += took.cpu
		bare += (before.wall + after.wall) / 2
		bareCPU += (before.cpu + after.cpu) / 2
		serverCPU += (before.children + after.children) / 2
	}
	n := float64(b.N)
	b.ReportMetric(ms(app)/n, "ms/app-listing")
	b.ReportMetric(ms(bare)/n, "ms/bare-listing")
	b.ReportMetric(100*float64(app-bare)/float64(bare), "%overhead")
	if appCPU > 0 {
		b.ReportMetric(ms(appCPU)/n, "cpu-ms/app-listing")
		b.ReportMetric(ms(bareCPU)/n, "cpu-ms/bare-listing")
		b.ReportMetric(ms(serverCPU)/n, "cpu-ms/server")
	}
}

// BenchmarkCatalogListingHost is the floor under BenchmarkCatalogListing's
// ratio: the host alone (hostcore's listing, its tap and gate, no window)
// lists the 50,000 on the connection the app already has up, and keeps
// each resource, against the bare client in the same rounds (before and
// after, as there). What the app costs over cpu-ms/host-listing is the
// window's; what this costs over cpu-ms/bare-listing is the host's. The
// bare side also pays a process start and a handshake, which this side
// does not: the host's share is, if anything, flattered. Between them,
// cpu-ms/bare-keep-listing is the least a host adds: the bare client
// keeping each resource as a hostcore.Resource.
func BenchmarkCatalogListingHost(b *testing.B) {
	sc := catalogServer(b)
	ca := newCatalogApp(b, sc)
	c := ca.tab.conn
	var hostCPU, keepCPU, bareCPU time.Duration
	for b.Loop() {
		before := timeBare(b, sc)
		took := timed(b, "host", func() {
			var kept []hostcore.Resource
			for r, err := range c.Resources(context.Background(), nil) {
				if err != nil {
					b.Fatal(err)
				}
				kept = append(kept, r)
			}
			if len(kept) != catalogSize {
				b.Fatalf("host listing: %d resources, want %d", len(kept), catalogSize)
			}
		})
		keeping := timed(b, "bare-keep", func() {
			if n := bareListing(b, sc, true); n != catalogSize {
				b.Fatalf("bare listing: %d resources kept, want %d", n, catalogSize)
			}
		})
		after := timeBare(b, sc)
		hostCPU += took.cpu
		keepCPU += keeping.cpu
		bareCPU += (before.cpu + after.cpu) / 2
	}
	if hostCPU > 0 {
		n := float64(b.N)
		b.ReportMetric(ms(hostCPU)/n, "cpu-ms/host-listing")
		b.ReportMetric(ms(keepCPU)/n, "cpu-ms/bare-keep-listing")
		b.ReportMetric(ms(bareCPU)/n, "cpu-ms/bare-listing")
	}
}

// timing is what one listing took: wall time, this process's CPU time,
// and its finished children's.
type timing struct{ wall, cpu, children time.Duration }

// timed runs f after a collection (outside the timer) and says what it
// took. f and the goroutines it starts carry the profiler label
// listing=name, so that a CPU profile tells the listings apart:
// go tool pprof -tagfocus listing=app.
func timed(b *testing.B, name string, f func()) timing {
	b.StopTimer()
	runtime.GC()
	b.StartTimer()
	self, children := cpuTime()
	t0 := time.Now()
	pprof.Do(context.Background(), pprof.Labels("listing", name), func(context.Context) { f() })
	wall := time.Since(t0)
	self2, children2 := cpuTime()
	return timing{wall: wall, cpu: self2 - self, children: children2 - children}
}

// timeBare times a bare listing of sc's 50,000 resources.
func timeBare(b *testing.B, sc config.ServerConfig) timing {
	return timed(b, "bare", func() {
		if n := bareListing(b, sc, false); n != catalogSize {
			b.Fatalf("bare listing: %d resources, want %d", n, catalogSize)
		}
	})
}

// bareListing connects a plain go-sdk client to sc over stdio and lists
// every page: the server's paging time, and nothing of the host's. With
// keep, it keeps each resource as the host's own type, as any host must
// to show it: the floor of what a host adds.
func bareListing(b *testing.B, sc config.ServerConfig, keep bool) int {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(sc.Command, sc.Args...)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	n := 0
	var kept []hostcore.Resource
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			b.Fatal(err)
		}
		n++
		if !keep {
			continue
		}
		h := hostcore.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size}
		if a := r.Annotations; a != nil {
			h.Annotations.LastModified = a.LastModified
			if a.Priority != 0 {
				p := a.Priority
				h.Annotations.Priority = &p
			}
		}
		kept = append(kept, h)
	}
	if keep {
		return len(kept)
	}
	return n
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
