package hostcore_test

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/testbin"
)

// BenchmarkListing lists 5,000 resources (mcptestd's paged mode, 100 a
// page, over stdio), each iteration once through the host with its cache
// and once through a bare go-sdk client, each on its own live connection
// to its own server process. The difference is what the host does per
// page beyond the SDK: the tap, raw priorities, the cache, converting.
// Interleaving the two keeps a busy machine's drift out of the
// comparison; the allocations per listing (of the whole process, so the
// connection's reader counts) are steady however busy it is. The
// listings carry the profiler label listing=host or listing=bare:
// go tool pprof -tagfocus listing=host.
func BenchmarkListing(b *testing.B) {
	const n = 5_000
	bin := testbin.Build(b, "internal/mcptest/mcptestd")
	args := []string{"--mode", "paged", "--resources", fmt.Sprint(n), "--page-size", "100", "--stdio"}
	ctx := context.Background()
	h := newHost(b, &hostcore.HostOptions{Cache: openCache(b, b.TempDir())})
	c := conn(b, h, config.ServerConfig{Name: "paged", Command: bin, Args: args}, "")
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, args...)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	var host, bare listingCost
	for b.Loop() {
		host.add(b, "host", func() int { return count(b, c.Resources(ctx, nil)) })
		bare.add(b, "bare", func() int { return count(b, cs.Resources(ctx, nil)) })
	}
	for _, side := range []struct {
		name string
		cost listingCost
	}{{"host", host}, {"bare", bare}} {
		if side.cost.items != n*b.N {
			b.Fatalf("%s: %d resources in %d listings; want %d each", side.name, side.cost.items, b.N, n)
		}
		b.ReportMetric(float64(side.cost.wall.Microseconds())/1000/float64(b.N), "ms/"+side.name+"-listing")
		b.ReportMetric(float64(side.cost.allocs)/float64(b.N), "allocs/"+side.name+"-listing")
		b.ReportMetric(float64(side.cost.bytes)/1024/float64(b.N), "KiB/"+side.name+"-listing")
	}
	b.ReportMetric(100*float64(host.wall-bare.wall)/float64(bare.wall), "%overhead")
}

// listingCost adds up listings: their wall time, the allocations made
// while they ran, and the items they listed.
type listingCost struct {
	wall          time.Duration
	allocs, bytes uint64
	items         int
}

func (l *listingCost) add(b *testing.B, label string, list func() int) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	pprof.Do(context.Background(), pprof.Labels("listing", label), func(context.Context) { l.items += list() })
	l.wall += time.Since(t0)
	runtime.ReadMemStats(&m1)
	l.allocs += m1.Mallocs - m0.Mallocs
	l.bytes += m1.TotalAlloc - m0.TotalAlloc
}

// count counts the items of a listing, failing b on an error.
func count[T any](b *testing.B, items func(yield func(T, error) bool)) int {
	n := 0
	for _, err := range items {
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}
