package pack_test

import (
	"testing"

	"github.com/attache/attache/hostcore/pack"
)

// BenchmarkRerank10k ranks the 10,000 items of BenchmarkRank10k again
// after a pin changed, with a Ranker that ranked them before: what the
// attachments screen pays for a pin or a priority. The items are copied
// on change, as the screen does, and nothing is read or hashed again.
func BenchmarkRerank10k(b *testing.B) {
	items := benchItems(10000)
	r := pack.NewRanker(nil)
	if p := r.Rank(items, 0); p.Used == 0 {
		b.Fatal("warm-up packed nothing")
	}
	b.ReportAllocs()
	reportCPU(b)
	i := 0
	for b.Loop() {
		changed := *items[i%len(items)]
		changed.Pinned = !changed.Pinned
		items[i%len(items)] = &changed
		r.Rank(items, 0)
		i += 7
	}
}

// BenchmarkRepack10k packs the same 10,000 items under a new budget: what
// a keystroke in the budget field costs.
func BenchmarkRepack10k(b *testing.B) {
	items := benchItems(10000)
	r := pack.NewRanker(nil)
	r.Rank(items, 0)
	budgets := []int{4000, 8000, 16000, 120000}
	b.ReportAllocs()
	reportCPU(b)
	i := 0
	for b.Loop() {
		if p := r.Repack(items, budgets[i%len(budgets)]); len(p.Decisions) != len(items) {
			b.Fatalf("%d decisions for %d items", len(p.Decisions), len(items))
		}
		i++
	}
}
