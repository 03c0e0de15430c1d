package state

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConcurrentAdds: attachments added to one conversation at once, while
// others read it, get positions 1..n without a gap or a repeat. Half the
// writers go through a second Store on the file, as another process would,
// so that SQLite's lock, not only the Store's mutex, is put to the test.
func TestConcurrentAdds(t *testing.T) {
	path := DefaultPath(t.TempDir())
	stores, ctx := []*Store{openTest(t, path), openTest(t, path)}, context.Background()
	c := newConversation(t, stores[0], "c")
	const writers, each = 8, 25
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for w := range writers {
		s := stores[w%2]
		wg.Go(func() {
			for i := range each {
				a, err := s.AddAttachment(ctx, attachment(c.ID, fmt.Sprintf("mem://%d/%d", w, i)))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, a.Position)
				mu.Unlock()
			}
		})
		wg.Go(func() {
			if _, err := s.Attachments(ctx, c.ID); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	slices.Sort(got)
	want := make([]int, writers*each)
	for i := range want {
		want[i] = i + 1
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}
