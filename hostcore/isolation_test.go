package hostcore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
)

// accountEcho is a server whose bodies name the account that asked (from an
// X-Account header) and whose uris say their scope: x://pub/N is public,
// x://priv/N private.
func accountEcho(t *testing.T) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "item", URITemplate: "x://{scope}/{n}"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			scope := "private"
			if strings.HasPrefix(req.Params.URI, "x://pub/") {
				scope = "public"
			}
			who := req.Extra.Header.Get("X-Account")
			return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{TTLMs: 3_600_000, CacheScope: scope},
				Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: req.Params.URI + " for " + who}}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestIsolationProperty: random reads by several accounts over several
// servers, uris and scopes. A private body is only ever served to the
// account that fetched it; a public one is shared (a hit for the others).
func TestIsolationProperty(t *testing.T) {
	accounts := []string{"ann", "bob", "cy"}
	var servers []config.ServerConfig
	for i := range 2 {
		sc := config.ServerConfig{Name: fmt.Sprintf("s%d", i), URL: accountEcho(t)}
		for _, a := range accounts {
			sc.Accounts = append(sc.Accounts, config.Account{Name: a, Headers: map[string]string{"X-Account": a}})
		}
		servers = append(servers, sc)
	}
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 9))
	publicHits := 0
	for range 600 {
		sc := servers[rng.IntN(len(servers))]
		who := accounts[rng.IntN(len(accounts))]
		scope := []string{"pub", "priv"}[rng.IntN(2)]
		uri := fmt.Sprintf("x://%s/%d", scope, rng.IntN(8))
		res, err := conn(t, h, sc, who).Read(ctx, uri, hostcore.ReadUse)
		if err != nil {
			t.Fatal(err)
		}
		body := res.Contents[0].Text
		if scope == "priv" && body != uri+" for "+who {
			t.Fatalf("%s on %s read %q: a private body of another account", who, sc.Name, body)
		}
		if scope == "pub" && res.Cache.Status == hostcore.CacheHit && !strings.HasSuffix(body, " for "+who) {
			publicHits++
		}
	}
	if publicHits == 0 {
		t.Error("no public entry was ever shared across accounts")
	}
}
