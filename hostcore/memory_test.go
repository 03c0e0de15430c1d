package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/threengram"
)

// A memory's metadata comes from its body, read through the cache: the
// second look is a hit, not a read of the server. Its line tells it apart.
func TestMemoryMeta(t *testing.T) {
	sc, store := threengramHTTP(t)
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, sc, "acme")
	ctx := context.Background()
	id := someIDs(t, c)[0]
	want, err := store.Get(ctx, "acme", id)
	if err != nil {
		t.Fatal(err)
	}
	m, ok, err := c.MemoryMeta(ctx, threengram.MemoryURI(id))
	if err != nil || !ok {
		t.Fatalf("MemoryMeta: ok %v, %v", ok, err)
	}
	if diff := cmp.Diff(hostcore.MemoryMeta{URI: threengram.MemoryURI(id), Type: want.MemoryType, Topic: want.Topic,
		Project: want.Project, Scope: want.Scope, RecordedAt: want.RecordedAt.UTC()}, m); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	line := m.Line()
	for _, part := range []string{want.MemoryType, want.Topic, want.Project, want.RecordedAt.UTC().Format(time.DateOnly)} {
		if part != "" && !strings.Contains(line, part) {
			t.Errorf("line %q lacks %q", line, part)
		}
	}
	r, err := c.Read(ctx, threengram.MemoryURI(id), hostcore.ReadUse)
	if err != nil || r.Cache.Status != hostcore.CacheHit {
		t.Errorf("the body was not kept by the first look: %v, %v", r.Cache.Status, err)
	}
	// A body that is not a memory has no metadata.
	if _, ok := hostcore.MemoryMetaOf(&hostcore.ReadResult{URI: "x", Contents: []pack.Content{{MIMEType: "application/json", Text: `{"a":1}`}}}); ok {
		t.Error("plain JSON read as a memory")
	}
}

// Lifecycle is asked of get_memories every time: an archive and a revision
// show at once, another tenant's memory is not found.
func TestMemoryStates(t *testing.T) {
	sc, store := threengramHTTP(t)
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, sc, "acme")
	ctx := context.Background()
	ids := someIDs(t, c)
	other := someIDs(t, conn(t, h, sc, "globex"))[0]
	got, err := c.MemoryLifecycle(ctx, []string{ids[0], ids[1], other})
	if err != nil {
		t.Fatal(err)
	}
	if !got[ids[0]].Current() || !got[ids[1]].Current() || !got[other].NotFound {
		t.Fatalf("states before = %+v", got)
	}
	if err := store.Archive(ctx, "acme", ids[0]); err != nil {
		t.Fatal(err)
	}
	next, err := store.Revise(ctx, "acme", ids[1], "revised text")
	if err != nil {
		t.Fatal(err)
	}
	got, err = c.MemoryLifecycle(ctx, ids[:2])
	if err != nil {
		t.Fatal(err)
	}
	if s := got[ids[0]]; s.Label() != "archived" || s.Current() {
		t.Errorf("archived memory: %+v", s)
	}
	if s := got[ids[1]]; s.Label() != "superseded by "+next.ID || s.Current() {
		t.Errorf("revised memory: %+v, want superseded by %s", s, next.ID)
	}
	// More ids than one get_memories call takes are asked in batches.
	many := append([]string{}, ids...)
	for i := len(many); i < 120; i++ {
		many = append(many, fmt.Sprintf("mnotthere%03d", i))
	}
	all, err := c.MemoryLifecycle(ctx, many)
	if err != nil || len(all) != len(many) || !all["mnotthere119"].NotFound {
		t.Errorf("%d ids asked, %d answered (%v)", len(many), len(all), err)
	}
	if s := got[ids[0]]; (hostcore.Lifecycle{NotFound: true}).Label() != "not found" || (hostcore.Lifecycle{Status: "active"}).Label() != "" {
		t.Errorf("labels of a missing and a current memory: %+v", s)
	}
}

// SearchMemories calls the search tool: excerpts with their metadata and
// live state, a page at a time.
func TestSearchMemories(t *testing.T) {
	sc, store := threengramHTTP(t)
	h := newHost(t, &hostcore.HostOptions{})
	c := conn(t, h, sc, "acme")
	ctx := context.Background()
	id := someIDs(t, c)[0]
	m, err := store.Get(ctx, "acme", id)
	if err != nil {
		t.Fatal(err)
	}
	word := strings.Fields(m.Content)[0]
	res, err := c.SearchMemories(ctx, word, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || len(res.Hits) > 2 {
		t.Fatalf("%d hits for %q with a limit of 2", len(res.Hits), word)
	}
	for _, hit := range res.Hits {
		if hit.ID == "" || hit.URI != threengram.MemoryURI(hit.ID) || hit.Type == "" || hit.Excerpt == "" || hit.RecordedAt.IsZero() || hit.State.Status == "" {
			t.Errorf("hit %+v lacks its id, metadata, excerpt or state", hit)
		}
	}
	if res.NextCursor != "" {
		more, err := c.SearchMemories(ctx, word, res.NextCursor, 2)
		if err != nil || len(more.Hits) == 0 || more.Hits[0].ID == res.Hits[0].ID {
			t.Errorf("the next page: %+v, %v", more, err)
		}
	}
	none, err := c.SearchMemories(ctx, "zzqxnotawordanywhere", "", 0)
	if err != nil || len(none.Hits) != 0 {
		t.Errorf("a search that matches nothing: %+v, %v", none, err)
	}
}

// A server without the tools says so in the host's terms.
func TestSearchMemoriesWithoutTheTool(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestMem(t, "image", nil), "")
	_, err := c.SearchMemories(context.Background(), "x", "", 0)
	var he *fault.Error
	if !errors.As(err, &he) {
		t.Fatalf("err = %v, want a host error", err)
	}
}
