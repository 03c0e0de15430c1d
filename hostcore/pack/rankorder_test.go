package pack

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The radix sort orders packed keys as the comparison sort does, whichever
// of their bytes vary: keys alike in most bytes skip passes, and an odd
// number of passes leaves the keys in the second half of its buffer.
func TestRadixSortAgreesWithCompareOrder(t *testing.T) {
	shapes := []struct {
		name                 string
		first, date, ordered func(rng *rand.Rand) uint64
	}{
		{"everything varies", rand64, rand64, rand64},
		{"one byte of the order varies", zero, zero, func(rng *rand.Rand) uint64 { return uint64(rng.IntN(256)) }},
		{"two bytes of the date vary", zero, func(rng *rand.Rand) uint64 { return uint64(rng.IntN(1<<16)) << 30 }, zero},
		{"few priorities, negative orders", func(rng *rand.Rand) uint64 { return uint64(rng.IntN(3)) << 60 },
			zero, func(rng *rand.Rand) uint64 { return uint64(rng.IntN(100) - 50) }},
		{"all equal: the index decides", zero, zero, zero},
	}
	for _, tt := range shapes {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(tt.name))))
			keys := make([]rankKey, 3*radixAbove)
			order := make([]rankOrder, len(keys))
			for i := range keys {
				keys[i].index = i
				order[i] = rankOrder{first: tt.first(rng), date: tt.date(rng), order: int(tt.ordered(rng)), key: &keys[i]}
			}
			want := slices.Clone(order)
			slices.SortFunc(want, compareOrder)
			got, _ := sortOrder(order, false, nil, nil)
			if len(got) != len(want) {
				t.Fatalf("%d keys sorted, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i].key {
					t.Fatalf("at %d: key of index %d, want index %d", i, got[i].index, want[i].key.index)
				}
			}
		})
	}
}

func rand64(rng *rand.Rand) uint64 { return rng.Uint64() }

func zero(*rand.Rand) uint64 { return 0 }
