package threengram

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/testbin"
)

// firstRuns is how many first runs race to seed one new database.
const firstRuns = 20

// corpusSize is the number of memories in the bundled corpus.
func corpusSize(t *testing.T) int {
	var entries []CorpusMemory
	if err := json.Unmarshal(assets.Corpus, &entries); err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// countMemories opens path and counts its memories.
func countMemories(t *testing.T, path string) int {
	s, err := OpenStore(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM memories`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSeedConcurrentOpensLoadOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tg.db")
	var wg sync.WaitGroup
	loaded := make([]int, firstRuns)
	errs := make([]error, firstRuns)
	for i := range firstRuns {
		wg.Go(func() {
			s, err := OpenStore(path, nil)
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Close()
			loaded[i], errs[i] = s.Seed(context.Background(), assets.Corpus)
		})
	}
	wg.Wait()
	seeders := 0
	for i := range firstRuns {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
		}
		if loaded[i] > 0 {
			seeders++
		}
	}
	if seeders != 1 {
		t.Errorf("%d runs loaded the corpus; want exactly 1", seeders)
	}
	if got, want := countMemories(t, path), corpusSize(t); got != want {
		t.Errorf("%d memories after %d concurrent first runs; want %d", got, firstRuns, want)
	}
}

// TestConcurrentFirstRunsOfTheServer starts the stdio server 20 times at
// once on a new database, as the demo's first run does once per account.
// Each seeds, then finds stdin closed and exits.
func TestConcurrentFirstRunsOfTheServer(t *testing.T) {
	bin := testbin.Build(t, "cmd/threengram")
	path := filepath.Join(t.TempDir(), "tg.db")
	var wg sync.WaitGroup
	for i := range firstRuns {
		wg.Go(func() {
			cmd := exec.Command(bin, "--db", path, "--seed", "--stdio", "--tenant", "acme")
			cmd.Stdin = nil // /dev/null: the server sees EOF once seeded
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("run %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	if got, want := countMemories(t, path), corpusSize(t); got != want {
		t.Errorf("%d memories after %d concurrent first runs; want %d", got, firstRuns, want)
	}
}
