package state

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/fault"
)

// The lab's relevance marks are kept with their turn: set, set again (no
// double), cleared, read back in order, and refused for a turn that does
// not exist.
func TestRelevanceMarks(t *testing.T) {
	s, ctx := openTest(t, ""), context.Background()
	c := newConversation(t, s, "chat")
	first, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.StartTurn(ctx, sampleTurn(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		turn int64
		uri  string
		on   bool
	}{{first.ID, "x://b", true}, {first.ID, "x://a", true}, {first.ID, "x://a", true}, {second.ID, "x://c", true},
		{second.ID, "x://c", false}, {second.ID, "x://never", false}} {
		if err := s.SetRelevant(ctx, m.turn, m.uri, m.on); err != nil {
			t.Fatal(err)
		}
	}
	turns, err := s.Turns(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := [][]string{turns[0].Relevant, turns[1].Relevant}
	if diff := cmp.Diff([][]string{{"x://a", "x://b"}, nil}, got); diff != "" {
		t.Errorf("relevance (-want +got):\n%s", diff)
	}
	if err := s.SetRelevant(ctx, 9999, "x://a", true); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("an unknown turn: %v", err)
	}
	if err := s.SetRelevant(ctx, first.ID, "", true); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("no uri: %v", err)
	}
}
