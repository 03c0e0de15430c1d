package hostcore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/threengram"
)

// benchRead measures one resources/read of a threengram memory through the
// host (no cache: every iteration reaches the server).
func benchRead(b *testing.B, sc config.ServerConfig) {
	h := newHost(b, nil)
	c := conn(b, h, sc, "acme")
	uri := threengram.MemoryURI(someIDs(b, c)[0])
	ctx := context.Background()
	if _, err := c.ReadServer(ctx, uri); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.ReadServer(ctx, uri); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadStdio(b *testing.B) { benchRead(b, threengramStdio(b)) }

func BenchmarkReadHTTP(b *testing.B) {
	sc, _ := threengramHTTP(b)
	benchRead(b, sc)
}

// BenchmarkCachedRead compares, in one run, a memory read of threengram over
// stdio (the server answers; on a live connection, and in a fresh process
// that starts the server), a hit from the cache's memory tier, and a hit
// from SQLite in a fresh process (a new Store on the file each time, as a
// new attachectl would open it).
func BenchmarkCachedRead(b *testing.B) {
	dir := b.TempDir()
	sc := threengramStdio(b)
	h := newHost(b, &hostcore.HostOptions{Cache: openCache(b, dir)})
	c := conn(b, h, sc, "acme")
	ctx := context.Background()
	uri := threengram.MemoryURI(someIDs(b, c)[0])
	if _, err := c.Read(ctx, uri, hostcore.ReadUse); err != nil {
		b.Fatal(err)
	}
	b.Run("stdio-server", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Read(ctx, uri, hostcore.ReadBypass); err != nil {
				b.Fatal(err)
			}
		}
	})
	// What a fresh process pays to ask the server: start it, initialize,
	// read, stop it. open-store-and-hit is the cache's side of that.
	b.Run("stdio-fresh-server", func(b *testing.B) {
		for b.Loop() {
			fresh := hostcore.NewHost(nil, withInProcess(nil))
			fc, _ := fresh.ConnFor(sc, "acme")
			if _, err := fc.Read(ctx, uri, hostcore.ReadBypass); err != nil {
				b.Fatal(err)
			}
			fresh.Close()
		}
	})
	b.Run("memory-hit", func(b *testing.B) {
		for b.Loop() {
			if res, err := c.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheHit {
				b.Fatal(res, err)
			}
		}
	})
	// The SQLite tier alone: a store with no memory tier, as a fresh
	// process has (its memory tier is empty). Opening the file is a
	// start-up cost, like connecting to the server, and is measured apart.
	b.Run("sqlite-hit", func(b *testing.B) {
		s, err := cache.Open(filepath.Join(dir, "cache.db"), &cache.Options{MemoryEntries: -1})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		fresh := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{Cache: hostcache.New(s)}))
		defer fresh.Close()
		fc, _ := fresh.ConnFor(sc, "acme")
		for b.Loop() {
			if res, err := fc.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheHit {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("open-store-and-hit", func(b *testing.B) {
		for b.Loop() {
			s, err := cache.Open(filepath.Join(dir, "cache.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			fresh := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{Cache: hostcache.New(s)}))
			fc, _ := fresh.ConnFor(sc, "acme")
			if res, err := fc.Read(ctx, uri, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheHit {
				b.Fatal(res, err)
			}
			fresh.Close()
			s.Close()
		}
	})
}
