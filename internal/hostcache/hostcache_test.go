package hostcache_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/hostcache"
)

func readKey(uri string) hostcore.CacheKey {
	return hostcore.CacheKey{Server: "https://mem.example/mcp", Method: "resources/read", Param: uri}
}

// TestAccountNameAndPartition: hostcore's partition and account name reach
// the store apart and come back as they went, a filter by account name
// matches it exactly (alice is not alice@example.com), and stats count by
// name even where two names share a partition.
func TestAccountNameAndPartition(t *testing.T) {
	ctx := context.Background()
	s, err := cache.Open(filepath.Join(t.TempDir(), "cache.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bc := hostcache.New(s)
	stored := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	alice := hostcore.CacheEntry{Key: readKey("mem://1"), Scope: hostcore.ScopePrivate, Partition: "fp-1",
		AccountName: "alice", Value: []byte("alice's"), StoredAt: stored, TTL: time.Hour}
	for _, e := range []hostcore.CacheEntry{
		alice,
		{Key: readKey("mem://1"), Scope: hostcore.ScopePrivate, Partition: "fp-2", AccountName: "alice@example.com", Value: []byte("x")},
		// alicex presents alice's credentials: one authorization context.
		{Key: readKey("mem://2"), Scope: hostcore.ScopePrivate, Partition: "fp-1", AccountName: "alicex", Value: []byte("x")},
		{Key: readKey("mem://1"), Scope: hostcore.ScopePublic, Value: []byte("shared")},
	} {
		if err := bc.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, ok, err := bc.Get(ctx, alice.Key, "fp-1")
	alice.Size = int64(len(alice.Value))
	if err != nil || !ok {
		t.Fatalf("Get = %v, %v", ok, err)
	}
	if diff := cmp.Diff(alice, got); diff != "" {
		t.Errorf("Get (-put +got):\n%s", diff)
	}
	byName := func() map[string]int {
		t.Helper()
		st, err := bc.Stats(ctx, hostcore.CacheFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return st.ByAccount
	}
	if diff := cmp.Diff(map[string]int{"alice": 1, "alice@example.com": 1, "alicex": 1}, byName()); diff != "" {
		t.Errorf("ByAccount (-want +got):\n%s", diff)
	}
	n, err := bc.Purge(ctx, hostcore.CacheFilter{Server: alice.Key.Server, Account: "alice", PrivateOnly: true})
	if n != 1 || err != nil {
		t.Errorf("Purge(account alice) = %d, %v; want 1, alice@example.com and alicex kept", n, err)
	}
	if n, err := bc.Purge(ctx, hostcore.CacheFilter{Partition: "fp-1"}); n != 1 || err != nil {
		t.Errorf("Purge(partition fp-1) = %d, %v; want alicex's 1", n, err)
	}
	if diff := cmp.Diff(map[string]int{"alice@example.com": 1}, byName()); diff != "" {
		t.Errorf("ByAccount after the purges (-want +got):\n%s", diff)
	}
}
