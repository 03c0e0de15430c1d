package cl100k

import (
	_ "embed"
	"fmt"
	"sync"
)

// The table is cl100k_base's ranks as tiktoken-go-loader ships them, laid
// out so that a lookup reads it where it lies: nothing is decoded, parsed
// or copied when a process starts counting, and only the pages a count
// touches are ever read from the binary. The file, little-endian:
//
//	magic  "cl100k\x00\x01"
//	n      uint32: the number of tokens; their ranks are 0 to n-1
//	bits   uint32: the hash index has 1<<bits slots
//	off    [n+1]uint32: rank r's bytes are bytes[off[r]:off[r+1]]
//	slot   [1<<bits]uint32: 1 + the rank of the token whose hash leads
//	       there (linear probing from hash(token)), 0 for an empty slot
//	bytes  every token's bytes, by rank
//
// It is made by `go generate` (TestTable with -update) from the loader's
// cl100k_base.tiktoken, and TestTable checks, without -update, that it is
// exactly what the loader's file makes.
//
//go:embed cl100k_base.ranks
var tableFile string

// tableMagic starts the table file; its last byte is the layout's version.
const tableMagic = "cl100k\x00\x01"

// table is the parsed header of a table file: substrings of it, no copy.
type table struct {
	n     int
	mask  uint64
	bits  uint
	off   string // (n+1) uint32
	slot  string // (1<<bits) uint32
	bytes string
}

// ranks is the embedded table, parsed on first use (a generator run
// starts from an empty file).
var ranks = sync.OnceValue(func() *table { return mustParse(tableFile) })

func mustParse(file string) *table {
	t, err := parseTable(file)
	if err != nil {
		// The table is embedded and checked by TestTable: a broken build.
		panic(fmt.Sprintf("cl100k: the embedded table: %v", err))
	}
	return t
}

// parseTable reads a table file's header and checks that its parts fit.
func parseTable(file string) (*table, error) {
	const head = len(tableMagic) + 8
	if len(file) < head || file[:len(tableMagic)] != tableMagic {
		return nil, fmt.Errorf("not a table file of this layout")
	}
	n := int(u32(file[8:], 0))
	bits := uint(u32(file[12:], 0))
	if bits < 1 || bits > 30 || n >= 1<<bits {
		return nil, fmt.Errorf("%d tokens in %d slots", n, 1<<bits)
	}
	offEnd := head + 4*(n+1)
	slotEnd := offEnd + 4<<bits
	if len(file) < slotEnd {
		return nil, fmt.Errorf("%d bytes: too short for %d tokens", len(file), n)
	}
	t := &table{n: n, bits: bits, mask: 1<<bits - 1, off: file[head:offEnd], slot: file[offEnd:slotEnd], bytes: file[slotEnd:]}
	if int(u32(t.off, n)) != len(t.bytes) {
		return nil, fmt.Errorf("the offsets end at %d, the bytes at %d", u32(t.off, n), len(t.bytes))
	}
	return t, nil
}

// u32 is the i-th little-endian uint32 of s.
func u32(s string, i int) uint32 {
	s = s[4*i : 4*i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// token is rank r's bytes.
func (t *table) token(r int) string {
	return t.bytes[u32(t.off, r):u32(t.off, r+1)]
}

// rank is the rank of the token whose bytes are piece, if there is one.
func (t *table) rank(piece string) (int, bool) {
	for i := slotOf(piece, t.bits); ; i = (i + 1) & t.mask {
		v := u32(t.slot, int(i))
		if v == 0 {
			return 0, false
		}
		if r := int(v - 1); t.token(r) == piece {
			return r, true
		}
	}
}

// slotOf is where the probe for s starts in an index of 1<<bits slots:
// FNV-1a, spread by a multiply so that the top bits depend on every byte.
// It is part of the table's layout: changing it means regenerating it.
func slotOf(s string, bits uint) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return (h * 0x9E3779B97F4A7C15) >> (64 - bits)
}
