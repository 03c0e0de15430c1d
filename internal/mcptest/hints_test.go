package mcptest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

func TestCacheHintsOfV2026(t *testing.T) {
	tests := []struct {
		uri   string
		ttl   int
		scope string
	}{
		{mcptest.ReadmeURI, mcptest.ReadmeTTLMs, "public"},
		{mcptest.LogoURI, mcptest.LogoTTLMs, "private"},
		{mcptest.NotesURI, 0, ""}, // absent on the wire: see TestCacheHintsAbsentOnTheWire
	}
	eachTransport(t, mcptest.ModeV2026, nil, func(t *testing.T, cs *mcp.ClientSession) {
		for _, tt := range tests {
			res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: tt.uri})
			if err != nil {
				t.Fatal(err)
			}
			if res.TTLMs != tt.ttl || res.CacheScope != tt.scope {
				t.Errorf("%s: ttlMs %d, cacheScope %q; want %d, %q", tt.uri, res.TTLMs, res.CacheScope, tt.ttl, tt.scope)
			}
		}
	})
}

func TestCacheHintsAbsentOnTheWire(t *testing.T) {
	url := httpServer(t, mcptest.ModeV2026, nil)
	read := func(uri string) string {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":%q,`+
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, uri)
		_, got := post(t, url, body, map[string]string{
			"Mcp-Method": "resources/read", "Mcp-Name": uri, "Mcp-Protocol-Version": mcptest.Version2026,
		})
		return got
	}
	if got := read(mcptest.NotesURI); !strings.Contains(got, mcptest.NotesURI) ||
		strings.Contains(got, "ttlMs") || strings.Contains(got, "cacheScope") {
		t.Errorf("read of %s: %s; want no ttlMs nor cacheScope", mcptest.NotesURI, got)
	}
	if got := read(mcptest.ReadmeURI); !strings.Contains(got, `"ttlMs":60000,"cacheScope":"public"`) {
		t.Errorf("read of %s: %s; want its public hint", mcptest.ReadmeURI, got)
	}
}

// TestCacheHintsOfLegacyEras records that go-sdk v1.8.0 writes its default
// hints (ttlMs 0, cacheScope "public") even to a 2025-era session.
func TestCacheHintsOfLegacyEras(t *testing.T) {
	for _, mode := range []string{mcptest.ModeV2025Nov, mcptest.ModeV2025Jun} {
		t.Run(mode, func(t *testing.T) {
			eachTransport(t, mode, nil, func(t *testing.T, cs *mcp.ClientSession) {
				res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.ReadmeURI})
				if err != nil || res.TTLMs != 0 || res.CacheScope != "public" {
					t.Errorf("read = %+v, %v; want ttlMs 0, cacheScope public", res, err)
				}
			})
		})
	}
}
