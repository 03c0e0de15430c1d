package ctl

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/internal/threengram"
)

// TestCachePurgeAccountIsExact: `cache purge --account alice` purges what
// alice stored and nothing of alice@example.com, whose name starts with
// "alice@". Both accounts are acme's tenant with tokens of their own, so
// each reads the same memory into a private partition of its own.
func TestCachePurgeAccountIsExact(t *testing.T) {
	dir := t.TempDir()
	s := seededStore(t)
	ctx := context.Background()
	srv := httptest.NewServer(threengram.NewHTTPHandler(s, nil))
	defer srv.Close()
	var accounts []any
	for _, name := range []string{"alice", "alice@example.com"} {
		tok, err := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
		if err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, map[string]any{"name": name, "headers": map[string]string{"Authorization": "Bearer " + tok}})
	}
	b, _ := json.Marshal(map[string]any{"servers": []any{map[string]any{"name": "tg", "url": srv.URL + "/mcp", "accounts": accounts}}})
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"ATTACHE_CONFIG=" + cfgPath, "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data")}

	ids := strings.Fields(ctl(t, env, "complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	if len(ids) == 0 {
		t.Fatal("no memory ids to read")
	}
	uri := threengram.MemoryURI(ids[0])
	status := func(account string) string {
		t.Helper()
		r := ctl(t, env, "read", "tg", uri, "--account", account, "--json")
		var out readOutput
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("read as %s: %+v", account, r)
		}
		return out.Host.Cache.Status
	}
	byAccount := func() map[string]int {
		t.Helper()
		r := ctl(t, env, "cache", "stats", "--json")
		var st struct {
			ByAccount map[string]int `json:"byAccount"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil {
			t.Fatalf("cache stats: %+v", r)
		}
		return st.ByAccount
	}
	for _, account := range []string{"alice", "alice@example.com"} {
		if got := status(account); got != "miss" {
			t.Fatalf("first read as %s: %s; want a miss (a private partition of its own)", account, got)
		}
	}
	if diff := cmp.Diff(map[string]int{"alice": 1, "alice@example.com": 1}, byAccount()); diff != "" {
		t.Fatalf("cache stats by account before the purge (-want +got):\n%s", diff)
	}

	r := ctl(t, env, "cache", "purge", "--server", "tg", "--account", "alice")
	if r.code != 0 || !strings.Contains(r.stdout, "purged 1 entry\n") {
		t.Errorf("cache purge --account alice: %+v; want 1 purged", r)
	}
	if diff := cmp.Diff(map[string]int{"alice@example.com": 1}, byAccount()); diff != "" {
		t.Errorf("cache stats by account after the purge (-want +got):\n%s", diff)
	}
	if got := status("alice@example.com"); got != "hit" {
		t.Errorf("alice@example.com after alice's purge: %s; want its entry kept, a hit", got)
	}
	if got := status("alice"); got != "miss" {
		t.Errorf("alice after its purge: %s; want a miss", got)
	}
}
