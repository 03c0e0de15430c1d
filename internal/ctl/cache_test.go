package ctl

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/attache/attache/internal/threengram"
)

// TestCacheAcrossProcesses is the cache issue's acceptance: the first read
// of a memory is a miss, a second one in a new process is a hit that never
// reaches the server, and the same uri under the other account is a miss.
func TestCacheAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	s := seededStore(t)
	ctx := context.Background()
	var reads atomic.Int32
	handler := threengram.NewHTTPHandler(s, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == "resources/read" {
			reads.Add(1)
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	acme, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
	globex, _ := s.IssueToken(ctx, "globex", []string{threengram.ScopeRead})
	cfg := map[string]any{"servers": []any{map[string]any{"name": "tg", "url": srv.URL + "/mcp", "accounts": []any{
		map[string]any{"name": "acme", "headers": map[string]string{"Authorization": "Bearer " + acme}},
		map[string]any{"name": "globex", "headers": map[string]string{"Authorization": "Bearer " + globex}},
	}}}}
	b, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "config.json")
	os.WriteFile(cfgPath, b, 0o600)
	env := []string{"ATTACHE_CONFIG=" + cfgPath, "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data")}

	ids := strings.Fields(ctl(t, env, "complete", "tg", threengram.MemoryTemplate, "id", "m").stdout)
	uri := threengram.MemoryURI(ids[0])
	status := func(args ...string) (string, string) {
		t.Helper()
		r := ctl(t, env, append([]string{"read", "tg", uri, "--json"}, args...)...)
		var out readOutput
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("read %v: %+v", args, r)
		}
		return out.Host.Cache.Status, out.Host.Cache.Scope
	}
	if st, scope := status(); st != "miss" || scope != "private" || reads.Load() != 1 {
		t.Fatalf("first read: %s %s, %d server reads; want a private miss and 1", st, scope, reads.Load())
	}
	if st, _ := status(); st != "hit" || reads.Load() != 1 {
		t.Fatalf("second read in a new process: %s, %d server reads; want a hit and still 1", st, reads.Load())
	}
	r := ctl(t, env, "read", "tg", "--account", "globex", uri)
	if r.code != exitNotFound || reads.Load() != 2 {
		t.Errorf("globex: exit %d, %d server reads; want the server asked (a miss) and not found", r.code, reads.Load())
	}
	if st, _ := status("--refresh"); st != "refresh" || reads.Load() != 3 {
		t.Errorf("--refresh: %s, %d reads", st, reads.Load())
	}
	if st, _ := status("--no-cache"); st != "bypass" || reads.Load() != 4 {
		t.Errorf("--no-cache: %s, %d reads", st, reads.Load())
	}
	r = ctl(t, env, "cache", "stats", "--json")
	var st struct {
		Private   int            `json:"private"`
		ByAccount map[string]int `json:"byAccount"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil || st.Private != 1 || st.ByAccount["acme"] != 1 {
		t.Errorf("cache stats: %+v %+v", r, st)
	}
	r = ctl(t, env, "cache", "purge", "--server", "tg", "--account", "acme")
	if r.code != 0 || !strings.Contains(r.stdout, "purged 1") {
		t.Errorf("purge: %+v", r)
	}
	if st, _ := status(); st != "miss" {
		t.Errorf("after purge: %s; want miss", st)
	}
}
