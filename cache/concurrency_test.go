package cache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentUse runs goroutines that Get, Put, Delete and Purge at
// once on two Stores sharing a file (run it with -race). No model can
// follow the interleaving, so each answer is checked against itself: a
// private entry goes only to its own account, and every value names the
// key and partition it was stored under, so a value served with another
// entry's metadata shows.
func TestConcurrentUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	var stores []*Store
	for _, memoryEntries := range []int{16, -1} { // a small memory tier, and none
		s, err := Open(path, &Options{MemoryEntries: memoryEntries})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	accounts := []string{"acme", "globex", ""}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			s, r := stores[g%2], rand.New(rand.NewPCG(uint64(g), 1))
			for range 300 {
				if err := concurrentStep(s, r, accounts); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, s := range stores {
		if err := s.Check(context.Background()); err != nil {
			t.Error(err)
		}
	}
}

// concurrentStep runs one random operation and checks a Get's answer.
func concurrentStep(s *Store, r *rand.Rand, accounts []string) error {
	ctx := context.Background()
	k := readKey(fmt.Sprint("mem://", r.IntN(6)))
	account := accounts[r.IntN(len(accounts))]
	switch roll := r.IntN(10); {
	case roll < 4:
		e := Entry{Key: k, Scope: Public}
		if account != "" {
			e.Scope, e.Account = Private, account
		}
		e.Value = []byte(fmt.Sprintf("%v|%s|%s|%d", k, e.Scope, e.Account, r.Int()))
		return s.Put(ctx, e)
	case roll < 5:
		_, err := s.Delete(ctx, k)
		return err
	case roll < 6:
		_, err := s.Purge(ctx, Filter{Account: account, PrivateOnly: true})
		return err
	}
	e, ok, err := s.Get(ctx, k, account)
	switch {
	case err != nil || !ok:
		return err
	case e.Scope == Private && e.Account != account:
		return fmt.Errorf("%s's private entry served to %q", e.Account, account)
	case !strings.HasPrefix(string(e.Value), fmt.Sprintf("%v|%s|%s|", k, e.Scope, e.Account)):
		return fmt.Errorf("Get(%v, %q) returned %q as a %s entry of %q", k, account, e.Value, e.Scope, e.Account)
	}
	return nil
}
