package cache

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// benchValue is about the size of a threengram memory body.
var benchValue = bytes.Repeat([]byte("0123456789abcdef"), 256) // 4 KiB

func benchGet(b *testing.B, opts *Options, wantMemoryHits bool) {
	s := openStore(b, opts)
	ctx := context.Background()
	k := readKey("threengram://memory/m-0001")
	mustPut(b, s, Entry{Key: k, Scope: Private, Account: "acme", Value: benchValue})
	s.Get(ctx, k, "acme") // promote, with the memory tier
	b.SetBytes(int64(len(benchValue)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := s.Get(ctx, k, "acme"); !ok || err != nil {
			b.Fatalf("Get = %v, %v", ok, err)
		}
	}
	if st, _ := s.Stats(ctx, Filter{}); (st.MemoryHits > 0) != wantMemoryHits {
		b.Fatalf("%d memory hits; the benchmark measured the wrong tier", st.MemoryHits)
	}
}

// BenchmarkGetMemory is a hit in the memory tier.
func BenchmarkGetMemory(b *testing.B) { benchGet(b, nil, true) }

// BenchmarkGetSQLite is a hit in SQLite, with the memory tier disabled.
func BenchmarkGetSQLite(b *testing.B) { benchGet(b, &Options{MemoryEntries: -1}, false) }

// BenchmarkPut replaces one of 1024 entries per op.
func BenchmarkPut(b *testing.B) {
	s := openStore(b, nil)
	ctx := context.Background()
	keys := make([]Key, 1024)
	for i := range keys {
		keys[i] = readKey(fmt.Sprint("threengram://memory/m-", i))
	}
	b.SetBytes(int64(len(benchValue)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.Put(ctx, Entry{Key: keys[i%len(keys)], Scope: Private, Account: "acme", Value: benchValue}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
