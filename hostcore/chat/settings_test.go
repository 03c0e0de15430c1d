package chat_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/hosttest"
)

// A conversation's tool switches are edited through the model loop: the
// servers of its attachments are on by default, the others off, and what
// the person switches is kept, for a server the host knows only.
func TestServerSwitches(t *testing.T) {
	sc := hosttest.ThreengramMem(t)
	other := hosttest.ThreengramMem(t)
	other.Name = "other"
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t)}, sc, other)
	st := hosttest.State(t)
	cv := hostcore.NewConversations(h, st)
	ch := chat.New(cv, st, nil)
	ctx := context.Background()
	conv, err := st.CreateConversation(ctx, "switches")
	if err != nil {
		t.Fatal(err)
	}
	c := hosttest.Conn(t, h, sc, "acme")
	if _, err := cv.AttachID(ctx, conv.ID, c, hosttest.MemoryIDs(t, c)[0]); err != nil {
		t.Fatal(err)
	}
	got := func() []chat.ServerSwitch {
		t.Helper()
		sw, err := ch.ServerSwitches(ctx, conv.ID)
		if err != nil {
			t.Fatal(err)
		}
		return sw
	}
	want := []chat.ServerSwitch{{Server: "threengram", On: true}, {Server: "other"}}
	if diff := cmp.Diff(want, got()); diff != "" {
		t.Errorf("default switches (-want +got):\n%s", diff)
	}
	if err := ch.SwitchServerTools(ctx, conv.ID, "threengram", false); err != nil {
		t.Fatal(err)
	}
	if err := ch.SwitchServerTools(ctx, conv.ID, "other", true); err != nil {
		t.Fatal(err)
	}
	want = []chat.ServerSwitch{{Server: "threengram", Set: true}, {Server: "other", On: true, Set: true}}
	if diff := cmp.Diff(want, got()); diff != "" {
		t.Errorf("switched (-want +got):\n%s", diff)
	}
	if err := ch.SwitchServerTools(ctx, conv.ID, "nowhere", true); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("switching an unknown server: %v, want a usage error", err)
	}
	if err := ch.SwitchServerTools(ctx, conv.ID+100, "other", true); err == nil {
		t.Error("switched a server in a conversation that does not exist")
	}
	if _, err := ch.Turn(ctx, conv.ID, 1); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("a turn that was never sent: %v, want not found", err)
	}
}
