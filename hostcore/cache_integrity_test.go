package hostcore_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/fulldisk"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/threengram"
)

// openStore opens the SQLite body cache in dir, closed by the caller.
func openStore(t *testing.T, dir string) *cache.Store {
	t.Helper()
	s, err := cache.Open(filepath.Join(dir, "cache.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// damage rewrites, in the closed cache file at path, a run of text taken
// from body: the bytes of a cached body change on disk while its digest
// stays.
func damage(t *testing.T, path, body string) {
	t.Helper()
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+16 <= len(body); i += 16 {
		run := body[i : i+16]
		if strings.ContainsAny(run, `"\`) || bytes.Count(file, []byte(run)) != 1 {
			continue // escaped in the stored JSON, or not alone in the file
		}
		if err := os.WriteFile(path, bytes.Replace(file, []byte(run), bytes.Repeat([]byte("X"), 16), 1), 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("found no run of the body to damage in the file")
}

// TestDamagedBodyIsReadAgain: a cached body changed on disk is not served
// as a hit: the read asks the server, gets the body as it is, says that
// the cached one was dropped, and stores it again.
func TestDamagedBodyIsReadAgain(t *testing.T) {
	ctx := context.Background()
	dir, sc := t.TempDir(), threengramMem(t)
	read := func(uri string) *hostcore.ReadResult {
		t.Helper()
		s := openStore(t, dir)
		defer s.Close()
		h := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{Cache: hostcache.New(s)}))
		defer h.Close()
		if uri == "" {
			uri = threengram.MemoryURI(someIDs(t, conn(t, h, sc, "acme"))[0])
		}
		res, err := conn(t, h, sc, "acme").Read(ctx, uri, hostcore.ReadUse)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := read("")
	if first.Cache.Status != hostcore.CacheMiss || first.Cache.NotStored != "" {
		t.Fatalf("first read: %+v; want a miss, stored", first.Cache)
	}
	body := first.Contents[0].Text
	damage(t, filepath.Join(dir, "cache.db"), body)

	again := read(first.URI)
	if again.Cache.Status != hostcore.CacheMiss || !strings.Contains(again.Cache.Dropped, "did not match its digest") {
		t.Errorf("read of the damaged body: status %s, dropped %q; want a miss that says the body was dropped", again.Cache.Status, again.Cache.Dropped)
	}
	if again.Contents[0].Text != body {
		t.Errorf("the read served %q; want the server's body %q", again.Contents[0].Text, body)
	}
	if hit := read(first.URI); hit.Cache.Status != hostcore.CacheHit || hit.Cache.Dropped != "" || hit.Contents[0].Text != body {
		t.Errorf("the read after: %+v; want a hit of the server's body", hit.Cache)
	}
}

// TestFullDiskReadIsNotStored: with the cache's disk full, a cached body
// is served, and a body read from the server is printed, not stored,
// saying the disk is full, never that the read failed.
func TestFullDiskReadIsNotStored(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	s := openStore(t, dir)
	defer s.Close()
	h := newHost(t, &hostcore.HostOptions{Cache: hostcache.New(s)})
	c := conn(t, h, threengramMem(t), "acme")
	ids := someIDs(t, c)
	cached := threengram.MemoryURI(ids[0])
	if _, err := c.Read(ctx, cached, hostcore.ReadUse); err != nil {
		t.Fatal(err)
	}
	fulldisk.Fill(t, dir)
	var res *hostcore.ReadResult
	var err error
	for _, id := range ids[1:] { // until the -wal file finds no room
		if res, err = c.Read(ctx, threengram.MemoryURI(id), hostcore.ReadUse); err != nil || res.Cache.NotStored != "" {
			break
		}
	}
	if err != nil || res.Cache.NotStored != "the disk is full" || len(res.Contents) != 1 {
		t.Errorf("a read on a full disk: %v, not stored %q; want the body, not stored: the disk is full", err, res.Cache.NotStored)
	}
	if res, err := c.Read(ctx, cached, hostcore.ReadUse); err != nil || res.Cache.Status != hostcore.CacheHit {
		t.Errorf("a cached read on a full disk: %v, %v; want a hit", res, err)
	}
}
