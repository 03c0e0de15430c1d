package ctl

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/threengram"
)

// storedCount is a count row of the cache file, with its entry's key.
type storedCount struct {
	key     cache.Key
	account string
	subject []byte
	tokens  int
}

// storedCounts reads the default counter's count rows of the cache file
// in env's data directory, by the URI read.
func storedCounts(t *testing.T, dataDir string) map[string]storedCount {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dataDir, "cache.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT e.server, e.method, e.param, e.account, c.subject, c.tokens
		FROM counts c JOIN entries e ON e.id = c.entry WHERE c.counter = ?`, pack.DefaultCounterName)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]storedCount{}
	for rows.Next() {
		var c storedCount
		if err := rows.Scan(&c.key.Server, &c.key.Method, &c.key.Param, &c.account, &c.subject, &c.tokens); err != nil {
			t.Fatal(err)
		}
		out[c.key.Param] = c
	}
	return out
}

// TestRankAndExportTakeStoredCounts: attach reads a body into the cache and
// counts nothing; the first rank counts each body and keeps its count with
// the entry; a later rank, and export, in new processes, take the stored
// count instead of counting again. The proof: a count replaced in the file
// (sealed, as the store writes it, of the same text) is the one a new
// process ranks by, and drops the memory from the budget.
func TestRankAndExportTakeStoredCounts(t *testing.T) {
	env := privateEnv(t)
	dataDir := strings.TrimPrefix(env[1], "ATTACHE_DATA_DIR=")
	must(t, env, "context", "new", "c")
	ids := strings.Fields(must(t, env, "complete", "demo", threengram.MemoryTemplate, "id", "m").stdout)
	must(t, env, "attach", "c", "demo", "--id", ids[0])
	must(t, env, "attach", "c", "demo", "--id", ids[1])
	if n := len(storedCounts(t, dataDir)); n != 0 {
		t.Errorf("after attach: %d counts stored; want none (attach counts nothing)", n)
	}
	rank := func() map[string]decisionJSON {
		t.Helper()
		var p packingJSON
		if err := json.Unmarshal([]byte(must(t, env, "rank", "c", "--json").stdout), &p); err != nil {
			t.Fatal(err)
		}
		out := map[string]decisionJSON{}
		for _, d := range p.Decisions {
			out[d.URI] = d
		}
		return out
	}
	first := rank()
	counts := storedCounts(t, dataDir)
	one, two := threengram.MemoryURI(ids[0]), threengram.MemoryURI(ids[1])
	for _, uri := range []string{one, two} {
		if c, ok := counts[uri]; !ok || c.tokens != first[uri].Tokens || c.tokens <= 0 {
			t.Fatalf("after the first rank, %s: stored %+v, ranked %d tokens; want the ranked count stored", uri, c, first[uri].Tokens)
		}
	}

	const replaced = 1_000_000
	s, err := cache.Open(filepath.Join(dataDir, "cache.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := cache.Count{Counter: pack.DefaultCounterName, Tokens: replaced}
	copy(c.Subject[:], counts[one].subject)
	if err := s.PutCount(context.Background(), counts[one].key, counts[one].account, c); err != nil {
		t.Fatal(err)
	}
	s.Close()

	next := rank()
	if next[one].Tokens != replaced || !strings.HasPrefix(next[one].Verdict, "dropped") || next[two].Tokens != first[two].Tokens {
		t.Errorf("rank in a new process: %s %d tokens (%s), %s %d; want the stored %d (dropped) and %d",
			one, next[one].Tokens, next[one].Verdict, two, next[two].Tokens, replaced, first[two].Tokens)
	}
	md := must(t, env, "export", "c", "--format", "md").stdout
	if strings.Contains(md, "## "+one) || !strings.Contains(md, "## "+two) {
		t.Errorf("export: want %s left out by its stored count and %s in:\n%s", one, two, md)
	}
}
