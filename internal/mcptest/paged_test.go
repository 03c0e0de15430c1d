package mcptest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

func TestPagedListsEveryResource(t *testing.T) {
	eachTransport(t, mcptest.ModePaged, nil, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := testContext(t)
		var n, pages int
		cursor := ""
		for {
			res, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				t.Fatalf("page %d: %v", pages, err)
			}
			pages++
			if len(res.Resources) != mcptest.DefaultPageSize {
				t.Fatalf("page %d has %d resources, want %d", pages, len(res.Resources), mcptest.DefaultPageSize)
			}
			for _, r := range res.Resources {
				if r.URI != mcptest.PagedURI(n) {
					t.Fatalf("resource %d is %s, want %s", n, r.URI, mcptest.PagedURI(n))
				}
				n++
			}
			if cursor = res.NextCursor; cursor == "" {
				break
			}
		}
		if n != mcptest.DefaultResources || pages != mcptest.DefaultResources/mcptest.DefaultPageSize {
			t.Errorf("listed %d resources in %d pages, want %d in %d", n, pages,
				mcptest.DefaultResources, mcptest.DefaultResources/mcptest.DefaultPageSize)
		}
	})
}

func TestPagedListsTemplatesOnTwoPages(t *testing.T) {
	eachTransport(t, mcptest.ModePaged, nil, func(t *testing.T, cs *mcp.ClientSession) {
		ctx := testContext(t)
		first, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(first.ResourceTemplates) != 100 || first.NextCursor == "" {
			t.Fatalf("first page: %d templates, cursor %q, %v", len(first.ResourceTemplates), first.NextCursor, err)
		}
		second, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: first.NextCursor})
		if err != nil || len(second.ResourceTemplates) != 50 || second.NextCursor != "" {
			t.Fatalf("second page: %d templates, cursor %q, %v", len(second.ResourceTemplates), second.NextCursor, err)
		}
		if got, want := second.ResourceTemplates[49].URITemplate, mcptest.PagedTemplate(149); got != want {
			t.Errorf("last template %s, want %s", got, want)
		}
	})
}

func TestPagedRejectsInvalidCursors(t *testing.T) {
	eachTransport(t, mcptest.ModePaged, &clientOpts{args: []string{"--resources", "300"}, server: &mcptest.Options{Resources: 300}},
		func(t *testing.T, cs *mcp.ClientSession) {
			ctx := testContext(t)
			first, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			tmpl, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, cursor := range []string{"garbage", "!!", tmpl.NextCursor, first.NextCursor + "x"} {
				_, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("cursor %q: %v, want -32602", cursor, err)
				}
			}
		})
}

func TestPagedReads(t *testing.T) {
	eachTransport(t, mcptest.ModePaged, nil, func(t *testing.T, cs *mcp.ClientSession) {
		last := mcptest.DefaultResources - 1
		if got := readOne(t, cs, mcptest.PagedURI(last)); got.Text != mcptest.PagedText(last) {
			t.Errorf("resource %d = %+v", last, got)
		}
		_, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.PagedURI(last + 1)})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("reading past the end: %v, want -32602", err)
		}
	})
}

// With ListTTL the list pages say how long a host may keep them, and the
// reads still say nothing; without it, go-sdk's zero ttl stays.
func TestPagedListTTL(t *testing.T) {
	tests := []struct {
		name      string
		opts      *clientOpts
		wantTTLMs int
	}{
		{"default", nil, 0},
		{"a day", &clientOpts{args: []string{"--list-ttl", "24h"}, server: &mcptest.Options{ListTTL: 24 * time.Hour}}, 86_400_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachTransport(t, mcptest.ModePaged, tt.opts, func(t *testing.T, cs *mcp.ClientSession) {
				ctx := testContext(t)
				rs, err := cs.ListResources(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				ts, err := cs.ListResourceTemplates(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcptest.PagedURI(0)})
				if err != nil {
					t.Fatal(err)
				}
				if rs.TTLMs != tt.wantTTLMs || ts.TTLMs != tt.wantTTLMs {
					t.Errorf("resources/list ttlMs %d, templates %d; want %d", rs.TTLMs, ts.TTLMs, tt.wantTTLMs)
				}
				if tt.wantTTLMs > 0 && (rs.CacheScope != "public" || ts.CacheScope != "public") {
					t.Errorf("scopes %q and %q, want public", rs.CacheScope, ts.CacheScope)
				}
				if read.TTLMs != 0 {
					t.Errorf("a read's ttlMs is %d, want 0", read.TTLMs)
				}
			})
		})
	}
}
