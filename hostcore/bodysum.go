package hostcore

import (
	"hash/maphash"
	"sync"
	"unsafe"
	"weak"
)

// bodySumAbove is the length from which a text's hash is remembered by the
// text's identity: below it, hashing the text costs less than finding it.
const bodySumAbove = 512

// bodySums remembers the hash of long texts by where their bytes are, so
// that hashing a body already hashed costs a map lookup instead of a pass
// over its bytes. Ranking 10,000 kept attachments again would otherwise
// hash 14 MB each time, for counts the memo already holds.
//
// An entry is keyed by the address of the text's first byte and holds a
// weak pointer to it: while that pointer still gives the address, the bytes
// are alive, and since a Go string's bytes never change, they are the
// bytes that were hashed. Once the garbage collector frees them the weak
// pointer goes nil, so a new text at the same address is hashed afresh;
// the memo keeps no text alive. The texts are the bodies of items and
// live in Go memory, as everything decoded or built in Go does.
//
// It holds at most max entries; when full it drops the entries whose text
// is gone and, if that is not enough, all of them. It is safe for
// concurrent use.
type bodySums struct {
	seed maphash.Seed
	max  int

	mu  sync.RWMutex
	sum map[uintptr]bodySum // by address: a key must not keep the bytes alive
}

type bodySum struct {
	bytes weak.Pointer[byte]
	n     int
	sum   uint64
}

func newBodySums(seed maphash.Seed, max int) *bodySums {
	return &bodySums{seed: seed, max: max, sum: map[uintptr]bodySum{}}
}

// of returns maphash.String(seed, s), from the memo when s was hashed
// before.
func (b *bodySums) of(s string) uint64 {
	if len(s) < bodySumAbove {
		return maphash.String(b.seed, s)
	}
	p := unsafe.StringData(s)
	b.mu.RLock()
	e, ok := b.sum[uintptr(unsafe.Pointer(p))]
	b.mu.RUnlock()
	if ok && e.n == len(s) && e.bytes.Value() == p {
		return e.sum
	}
	sum := maphash.String(b.seed, s)
	b.store(p, bodySum{weak.Make(p), len(s), sum})
	return sum
}

func (b *bodySums) store(p *byte, e bodySum) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sum) >= b.max {
		for q, e := range b.sum {
			if e.bytes.Value() == nil {
				delete(b.sum, q)
			}
		}
		if len(b.sum) >= b.max {
			clear(b.sum)
		}
	}
	b.sum[uintptr(unsafe.Pointer(p))] = e
}
