package threengram_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/threengram"
)

func seededStore(t *testing.T) *threengram.Store {
	t.Helper()
	s, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	return s
}

// connectTenant connects a client to a server for tenant over in-memory
// transports, as stdio would with --tenant.
func connectTenant(t *testing.T, s *threengram.Store, tenant string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	srv := threengram.NewServer(s, &threengram.ServerOptions{Tenant: tenant})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// ownIDs returns some current memory ids of tenant, found through search.
func ownIDs(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "", "limit": 50}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %+v", err, res)
	}
	var out threengram.SearchOutput
	remarshal(t, res.StructuredContent, &out)
	var ids []string
	for _, r := range out.Results {
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		t.Fatal("tenant has no memories")
	}
	return ids
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatal(err)
	}
}

func TestTemplatesListExactlyOne(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	res, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ResourceTemplates) != 1 {
		t.Fatalf("got %d templates; want 1", len(res.ResourceTemplates))
	}
	tm := res.ResourceTemplates[0]
	if tm.URITemplate != threengram.MemoryTemplate || tm.Title == "" || tm.Description == "" ||
		tm.MIMEType != "application/json" || tm.Annotations == nil || len(tm.Annotations.Audience) == 0 {
		t.Errorf("template = %+v", tm)
	}
}

func TestResourcesListIsEmpty(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	res, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) != 0 || res.NextCursor != "" {
		t.Errorf("resources/list = %d resources, cursor %q; want none", len(res.Resources), res.NextCursor)
	}
}

func TestReadReturnsOnlyImmutableFieldsWithHints(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	ctx := context.Background()
	for _, id := range ownIDs(t, cs)[:5] {
		uri := threengram.MemoryURI(id)
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if res.TTLMs != 86_400_000 || res.CacheScope != "private" {
			t.Errorf("%s: ttlMs=%d cacheScope=%q; want 86400000, private", uri, res.TTLMs, res.CacheScope)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].MIMEType != "application/json" {
			t.Fatalf("%s: contents = %+v", uri, res.Contents)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &body); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range body {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := []string{"content", "contentLength", "memoryType", "project", "recordedAt", "scope", "topic"}
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("%s: body fields (-want +got):\n%s", uri, diff)
		}
	}
}

// notFoundError reads uri and returns the JSON-RPC error, marshalled, with
// the uri replaced by a placeholder so two reads can be compared.
func notFoundError(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("read %s: %v; want a JSON-RPC error", uri, err)
	}
	b, _ := json.Marshal(rpcErr)
	return strings.ReplaceAll(string(b), uri, "URI")
}

func TestCrossTenantIsIndistinguishableFromMissing(t *testing.T) {
	s := seededStore(t)
	acme := connectTenant(t, s, "acme")
	globex := connectTenant(t, s, "globex")
	foreign := ownIDs(t, globex)[0]
	foreignErr := notFoundError(t, acme, threengram.MemoryURI(foreign))
	missingErr := notFoundError(t, acme, threengram.MemoryURI("mzzzzzzzzzz"))
	if foreignErr != missingErr {
		t.Errorf("cross-tenant and missing differ:\n%s\n%s", foreignErr, missingErr)
	}
	if !strings.Contains(foreignErr, `"code":-32602`) {
		t.Errorf("error %s; want code -32602", foreignErr)
	}
}

func TestReadRefusesHostileURIs(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	own := ownIDs(t, cs)[0]
	for _, uri := range []string{
		"threengram://memory/" + own + "/..",
		"threengram://memory/../" + own,
		"threengram://memory/" + own + "?tenant=globex",
		"threengram://memory/%2e%2e",
		"threengram://other/" + own,
		"file:///etc/passwd",
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
			t.Errorf("read %q = %v; want -32602", uri, err)
		}
	}
}

func complete(t *testing.T, cs *mcp.ClientSession, prefix string) []string {
	t.Helper()
	res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: threengram.MemoryTemplate},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: prefix},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion.Values
}

func TestCompletionScopedToTenant(t *testing.T) {
	s := seededStore(t)
	acme := connectTenant(t, s, "acme")
	globex := connectTenant(t, s, "globex")
	all := complete(t, acme, "m")
	if len(all) != 100 {
		t.Errorf("got %d values for prefix m; want the cap of 100", len(all))
	}
	foreign := ownIDs(t, globex)
	for _, id := range foreign {
		if slices.Contains(all, id) {
			t.Errorf("acme was offered globex's id %s", id)
		}
		if got := complete(t, acme, id); len(got) != 0 {
			t.Errorf("acme completing globex's full id %s got %v", id, got)
		}
	}
	own := ownIDs(t, acme)[0]
	if got := complete(t, acme, own[:4]); !slices.Contains(got, own) {
		t.Errorf("prefix %s did not offer %s: %v", own[:4], own, got)
	}
	for _, v := range complete(t, acme, own[:4]) {
		if !strings.HasPrefix(v, own[:4]) {
			t.Errorf("value %s lacks prefix %s", v, own[:4])
		}
	}
}

func callTool[T any](t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) T {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error %+v", name, res.Content)
	}
	var out T
	remarshal(t, res.StructuredContent, &out)
	return out
}

func TestToolsLifecycle(t *testing.T) {
	s := seededStore(t)
	acme := connectTenant(t, s, "acme")
	globex := connectTenant(t, s, "globex")
	ctx := context.Background()

	made := callTool[threengram.WriteOutput](t, acme, "remember", map[string]any{
		"content": "The demo uses two tenants.", "topic": "onboarding", "memoryType": "fact", "tags": []string{"demo"}})
	rev := callTool[threengram.WriteOutput](t, acme, "revise", map[string]any{"id": made.ID, "content": "The demo uses three tenants."})
	if rev.ID == made.ID || rev.Supersedes != made.ID {
		t.Fatalf("revise = %+v; want a new id superseding %s", rev, made.ID)
	}
	// The old resource still reads the old words: the body never changed.
	old, err := acme.ReadResource(ctx, &mcp.ReadResourceParams{URI: made.URI})
	if err != nil || !strings.Contains(old.Contents[0].Text, "two tenants") {
		t.Errorf("predecessor read = %v, %v", old, err)
	}
	got := callTool[threengram.GetMemoriesOutput](t, acme, "get_memories", map[string]any{"ids": []string{made.ID, rev.ID, "mmissing"}})
	if len(got.Memories) != 2 || got.Memories[0].ValidTo == "" || got.Memories[0].SupersededBy != rev.ID {
		t.Errorf("get_memories = %+v", got)
	}
	if diff := cmp.Diff([]string{"mmissing"}, got.NotFound); diff != "" {
		t.Errorf("notFound (-want +got): %s", diff)
	}
	// Another tenant's get_memories puts owned-by-acme in notFound too.
	cross := callTool[threengram.GetMemoriesOutput](t, globex, "get_memories", map[string]any{"ids": []string{made.ID, "mmissing"}})
	if len(cross.Memories) != 0 || len(cross.NotFound) != 2 {
		t.Errorf("cross-tenant get_memories = %+v", cross)
	}
	arch := callTool[threengram.WriteOutput](t, acme, "archive", map[string]any{"id": rev.ID})
	if arch.Status != "archived" {
		t.Errorf("archive = %+v", arch)
	}
	after := callTool[threengram.GetMemoriesOutput](t, acme, "get_memories", map[string]any{"ids": []string{rev.ID}})
	if after.Memories[0].Status != "archived" {
		t.Errorf("status after archive = %q", after.Memories[0].Status)
	}
}

func TestSearchExcerptsAndPages(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	seen := map[string]bool{}
	cursor := ""
	truncated := 0
	for {
		out := callTool[threengram.SearchOutput](t, cs, "search", map[string]any{"query": "", "limit": 40, "cursor": cursor})
		for _, r := range out.Results {
			if seen[r.ID] {
				t.Fatalf("duplicate %s across pages", r.ID)
			}
			seen[r.ID] = true
			if len([]rune(r.Excerpt)) > threengram.ExcerptLength {
				t.Errorf("%s: excerpt of %d runes", r.ID, len([]rune(r.Excerpt)))
			}
			if r.Truncated {
				truncated++
			}
		}
		if out.NextCursor == "" {
			break
		}
		cursor = out.NextCursor
	}
	if len(seen) < 100 || truncated == 0 {
		t.Errorf("saw %d memories, %d truncated; want over 100 and some truncated", len(seen), truncated)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "x", "cursor": "garbage"}})
	if err == nil && !res.IsError {
		t.Error("a garbage cursor was accepted")
	}
}

func TestBriefingOpenCommitments(t *testing.T) {
	cs := connectTenant(t, seededStore(t), "acme")
	out := callTool[threengram.BriefingOutput](t, cs, "briefing", nil)
	if len(out.Recent) == 0 || len(out.OpenCommitments) == 0 {
		t.Fatalf("briefing = %d recent, %d open", len(out.Recent), len(out.OpenCommitments))
	}
	for _, c := range out.OpenCommitments {
		if c.CommitmentStatus != "open" || c.MemoryType != "commitment" {
			t.Errorf("open commitment %+v", c)
		}
	}
}
