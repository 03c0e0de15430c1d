package pack_test

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// benchItems builds n attachments shaped like a large conversation: text
// bodies of 40 to 400 words (1.5 KB on average, 13.7 MB for 10,000 items),
// some images, some held for the user, a few unreadable, pinned or
// overridden, lastModified in several ISO 8601 shapes. The same n always
// gives the same items.
func benchItems(n int) []*pack.Item {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the host decides what the model reads: a ranked list and a limit, " +
		"annotations audience priority lastModified budget tokens mémoire contexte")
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	items := make([]*pack.Item, n)
	for i := range items {
		it := &pack.Item{
			ID:     fmt.Sprintf("att-%05d", i),
			Server: "threengram", Account: "alice",
			URI:    fmt.Sprintf("threengram://memory/%d", i),
			Order:  i,
			Pinned: rng.IntN(100) == 0,
		}
		if rng.IntN(10) > 0 {
			it.Annotations.Priority = prio(float64(rng.IntN(11)) / 10)
		}
		if rng.IntN(20) == 0 {
			it.PriorityOverride = prio(rng.Float64())
		}
		if rng.IntN(10) == 0 {
			it.Annotations.Audience = []string{"user"}
		}
		modified := base.Add(time.Duration(rng.IntN(1e6)) * time.Minute)
		switch rng.IntN(4) {
		case 0:
			it.Annotations.LastModified = modified.Format(time.RFC3339)
		case 1:
			it.Annotations.LastModified = modified.Format("2006-01-02T15:04:05.000-07:00")
		case 2:
			it.Annotations.LastModified = modified.Format("2006-01-02T15:04:05")
		}
		switch r := rng.IntN(100); {
		case r < 2:
			it.ReadErr = pack.ErrNotFound
		case r < 7:
			it.Contents = []pack.Content{{URI: it.URI, MIMEType: "image/png", Blob: onePixelPNG, IsBlob: true}}
		default:
			var b strings.Builder
			for range 40 + rng.IntN(360) {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			it.Contents = []pack.Content{{URI: it.URI, MIMEType: "application/json", Text: b.String()}}
		}
		items[i] = it
	}
	return items
}

// BenchmarkRank10k ranks and packs 10,000 attachments whose bodies are
// already counted (the warm-up pass fills the token memo) with Rank, which
// keeps nothing of earlier rankings: each operation hashes each item's
// fields to find its count, parses its date, sorts 10,000 packed keys
// (the radix sort) and writes the decisions, whose reasons are shared.
// The attachments screen ranks what it keeps with a Ranker instead, which
// remembers what it measured (BenchmarkRerank10k).
func BenchmarkRank10k(b *testing.B) {
	items := benchItems(10000)
	warm := pack.Rank(items, nil)
	if warm.Used == 0 || len(warm.Decisions) != len(items) {
		b.Fatalf("warm-up packed nothing: %+v", warm.Used)
	}
	b.ReportAllocs()
	reportCPU(b)
	for b.Loop() {
		pack.Rank(items, nil)
	}
}

// BenchmarkRank10kFloor is the floor of BenchmarkRank10k: reading each
// of its items' bodies once, hashed as the token memo hashes them, and
// nothing else. Rank keeps nothing of the items it ranked, so to find a
// body's count it must read the body (13.7 MB for the 10,000 items); what
// Rank10k costs above this figure is the rest of its work (the dates, the
// images' headers, the memo's lookups, the sort and the decisions).
func BenchmarkRank10kFloor(b *testing.B) {
	items := benchItems(10000)
	seed := maphash.MakeSeed()
	b.ReportAllocs()
	reportCPU(b)
	var sum uint64
	for b.Loop() {
		for _, it := range items {
			for _, c := range it.Contents {
				sum += maphash.String(seed, c.Text)
			}
		}
	}
	if sum == 0 {
		b.Fatal("no body hashed")
	}
}

// BenchmarkRank10kFresh ranks the items of BenchmarkRank10k as a send
// does: built afresh for each ranking (copies, sharing the bodies), with
// only the token memo to help. The copying is part of the figure; as Rank
// keeps nothing of the items, it is what sets this figure apart from
// BenchmarkRank10k's.
func BenchmarkRank10kFresh(b *testing.B) {
	items := benchItems(10000)
	pack.Rank(items, nil)
	fresh := make([]*pack.Item, len(items))
	b.ReportAllocs()
	reportCPU(b)
	for b.Loop() {
		for i, it := range items {
			c := *it
			fresh[i] = &c
		}
		pack.Rank(fresh, nil)
	}
}

// reportCPU reports the CPU time the process spent per operation from now
// to the end of the benchmark, as "cpu-ns/op". On a busy machine the wall
// time (ns/op) includes the time other programs held the CPU; the CPU time
// counts only this process's work, the garbage collector's included, so it
// is the steadier figure to compare runs by. Call it after the setup.
func reportCPU(b *testing.B) {
	start, ok := processCPU()
	if !ok {
		return
	}
	b.Cleanup(func() {
		if end, ok := processCPU(); ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	})
}
