package hostcache_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/hostcache"
)

// firstCountDirEnv names the directory whose cache file the prepare
// sub-benchmark fills, in the child process the stored one starts.
const firstCountDirEnv = "ATTACHE_FIRSTCOUNT_DIR"

// firstCountNameEnv names the body (see firstCountBody) the child stores.
const firstCountNameEnv = "ATTACHE_FIRSTCOUNT_BODY"

// firstCountKey is the entry the first-count benchmark reads and counts.
var firstCountKey = hostcore.CacheKey{Server: "stdio:threengram", Method: "resources/read", Param: "threengram://memory/first"}

// firstCountBody is a 16 KiB Markdown memory, as a body read for ranking,
// of its own for each name: the process's memo of counts (see
// pack.DefaultTokenCounter) must not know it from another sub-benchmark.
func firstCountBody(name string) string {
	var b strings.Builder
	for i := 0; b.Len() < 16<<10; i++ {
		fmt.Fprintf(&b, "## Note %d of %s\n\nThe build of release %d.%d moved the cache to `cache.db`; see issue #%d for why the seal covers the digest.\n\n", i, name, i/10, i%10, 100+i)
	}
	return b.String()
}

// BenchmarkFirstCount is the first token count of a process, from a cache
// file on disk, with the default counter (cl100k_base):
//
//   - stored: the cache file already holds the body's count (a child
//     process read and counted it first); the count must be the stored
//     one, and the process must not load the tokenizer's table;
//   - unstored: a body never counted; the first count reads the table
//     (package cl100k's, in place: nothing to load first);
//   - floor: a process that only opens the cache file and point-reads the
//     count row (cache.Store.Count), nothing else.
//
// Each timed region starts with opening the cache file: stored and
// unstored then read the entry (cache.Store.Get), make its item with the
// entry's counts (as the host's reads do) and count it (pack.Tokens). The
// process's own start (the binary's loading and package inits) is outside
// every figure. Each reports ms/first-count (wall), cpu-ms/first-count and
// alloc-MB/first-count. A first count is only a first count in a fresh
// process: scripts/bench.sh runs each sub-benchmark in a process of its
// own, with -test.benchtime 1x; in a process that already counted, the
// figure repeats the first one measured.
func BenchmarkFirstCount(b *testing.B) {
	b.Run("stored", func(b *testing.B) { firstCount(b, true) })
	b.Run("unstored", func(b *testing.B) { firstCount(b, false) })
	b.Run("floor", benchCountFloor)
	b.Run("prepare", benchPrepare)
}

// firstFigures keeps each sub-benchmark's one measurement, for the later
// calls of its function with a larger b.N.
var firstFigures = map[string]measured{}

// measured is what one first count cost.
type measured struct {
	wall, cpu time.Duration
	alloc     uint64
}

func (m measured) report(b *testing.B) {
	b.ReportMetric(float64(m.wall), "ns/op") // the count, not the setup around it
	b.ReportMetric(float64(m.wall)/1e6, "ms/first-count")
	if m.cpu > 0 {
		b.ReportMetric(float64(m.cpu)/1e6, "cpu-ms/first-count")
	}
	b.ReportMetric(float64(m.alloc)/(1<<20), "alloc-MB/first-count")
}

// measure runs f once, unless this process already measured name, and
// reports what it cost.
func measure(b *testing.B, name string, f func()) {
	m, ok := firstFigures[name]
	if !ok {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		alloc := ms.TotalAlloc
		cpu0, _ := processCPU()
		start := time.Now()
		f()
		m.wall = time.Since(start)
		if cpu1, ok := processCPU(); ok {
			m.cpu = cpu1 - cpu0
		}
		runtime.ReadMemStats(&ms)
		m.alloc = ms.TotalAlloc - alloc
		firstFigures[name] = m
	}
	m.report(b)
}

// firstCount measures the first count of a process, the body's count
// stored in its cache file or not.
func firstCount(b *testing.B, stored bool) {
	name := map[bool]string{true: "stored", false: "unstored"}[stored]
	if m, done := firstFigures[name]; done {
		m.report(b)
		return
	}
	dir := b.TempDir()
	if stored {
		prepareInChild(b, dir, name)
	} else {
		putBody(b, dir, name)
	}
	if pack.TableLoaded() {
		b.Skip("this process has loaded the tokenizer's table already: its next count is not a first one")
	}
	var tokens int
	measure(b, name, func() { tokens = openAndCount(b, dir) })
	if want := len(strings.Fields(firstCountBody(name))); tokens < want/2 || tokens > 4*want {
		b.Fatalf("%s: counted %d tokens in %d words", name, tokens, want)
	}
	if stored && pack.TableLoaded() {
		b.Fatal("stored: the count loaded the tokenizer's table; want the count kept in the cache file")
	}
	if !stored && !pack.TableLoaded() {
		b.Fatal("unstored: counted without loading the table; the figure is not a first count")
	}
}

// openAndCount opens the cache in dir, reads the benchmark's entry and
// counts it with the default counter, as rank does.
func openAndCount(b *testing.B, dir string) int {
	s, bc, err := hostcache.Open(dir, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e, ok, err := bc.Get(context.Background(), firstCountKey, "")
	if err != nil || !ok {
		b.Fatalf("reading the entry: %v, found %v", err, ok)
	}
	it := &pack.Item{ID: "1", Server: "threengram", URI: firstCountKey.Param,
		Contents: []pack.Content{{URI: firstCountKey.Param, MIMEType: "text/markdown", Text: string(e.Value)}},
		Counts:   bc.(hostcore.CountingCache).CountsFor(firstCountKey, "")}
	return pack.Tokens(it, nil)
}

// putBody stores the benchmark's body in a new cache file in dir, with no
// count.
func putBody(b *testing.B, dir, name string) {
	s, bc, err := hostcache.Open(dir, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	err = bc.Put(context.Background(), hostcore.CacheEntry{Key: firstCountKey, Scope: hostcore.ScopePublic,
		Value: []byte(firstCountBody(name)), StoredAt: time.Now(), TTL: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
}

// prepareInChild has another process store the body in dir and count it,
// so that this one has the count without ever loading the table.
func prepareInChild(b *testing.B, dir, name string) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$", "-test.bench", "^BenchmarkFirstCount$/^prepare$", "-test.benchtime", "1x")
	cmd.Env = append(os.Environ(), firstCountDirEnv+"="+dir, firstCountNameEnv+"="+name)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("preparing the cache file in a child process: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache.db")); err != nil {
		b.Fatalf("the child process left no cache file: %v", err)
	}
}

// benchPrepare is the child's side of prepareInChild: it stores the body
// in the directory named by firstCountDirEnv and counts it, which keeps
// the count with the entry. Run by hand, it is skipped.
func benchPrepare(b *testing.B) {
	dir := os.Getenv(firstCountDirEnv)
	if dir == "" {
		b.Skip("only run by the stored sub-benchmark, in a child process")
	}
	putBody(b, dir, os.Getenv(firstCountNameEnv))
	if n := openAndCount(b, dir); n <= 0 {
		b.Fatalf("counted %d tokens", n)
	}
}

// benchCountFloor is the floor: open the cache file and point-read the
// count row, nothing more.
func benchCountFloor(b *testing.B) {
	if m, done := firstFigures["floor"]; done {
		m.report(b)
		return
	}
	dir := b.TempDir()
	prepareInChild(b, dir, "floor")
	measure(b, "floor", func() {
		s, _, err := hostcache.Open(dir, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		key := cache.Key{Server: firstCountKey.Server, Method: firstCountKey.Method, Param: firstCountKey.Param}
		c, ok, err := s.Count(context.Background(), key, "", pack.DefaultCounterName)
		if err != nil || !ok || c.Tokens <= 0 {
			b.Fatalf("reading the count row: %v, found %v, %d tokens", err, ok, c.Tokens)
		}
	})
}
