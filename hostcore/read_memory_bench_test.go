package hostcore_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/mcptest"
)

// heapPeak samples the heap's live objects while f runs and returns the
// largest rise over the heap as it was (collected) before f. A sampler
// wakes every 200 µs: a peak shorter than that can slip through, so the
// figure is a floor on the true peak.
func heapPeak(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	if v := read(); v > peak {
		peak = v
	}
	return peak - min(base, peak)
}

// BenchmarkReadBlobMemory reads a 20 MB blob over stdio through the host
// and its SQLite cache (ReadRefresh: fetched, checked and stored every
// time), and reports the heap's peak over the body's size: peak/body.
// The goal is at most 3.
func BenchmarkReadBlobMemory(b *testing.B) {
	const body = 20 << 20
	sc := mcptestStdio(b, mcptest.ModeBigBlob, "--body-bytes", strconv.Itoa(body))
	h := newHost(b, &hostcore.HostOptions{Cache: openCache(b, b.TempDir()), MaxBodyBytes: 32 << 20})
	c := conn(b, h, sc, "")
	ctx := context.Background()
	if _, err := c.Session(ctx); err != nil {
		b.Fatal(err)
	}
	var worst uint64
	for b.Loop() {
		var err error
		var res *hostcore.ReadResult
		peak := heapPeak(func() { res, err = c.Read(ctx, mcptest.RawResourceURI, hostcore.ReadRefresh) })
		if err != nil {
			b.Fatal(err)
		}
		if res.Size() != body || res.Cache.NotStored != "" {
			b.Fatalf("read %d bytes, not stored %q; want %d, stored", res.Size(), res.Cache.NotStored, body)
		}
		worst = max(worst, peak)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(worst)/body, "peak/body")
}
