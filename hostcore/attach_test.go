package hostcore_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/internal/threengram"
)

func openState(t testing.TB) *state.Store {
	s, err := state.Open(filepath.Join(t.TempDir(), "state.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// configuredHost returns a host whose config holds servers: attachments
// remember configured servers by name, credentials staying in the config.
func configuredHost(t *testing.T, opts *hostcore.HostOptions, servers ...config.ServerConfig) *hostcore.Host {
	t.Helper()
	cfg, _ := config.LoadConfig(filepath.Join(t.TempDir(), "config.json"))
	for _, sc := range servers {
		if err := cfg.Upsert(sc); err != nil {
			t.Fatal(err)
		}
	}
	h := hostcore.NewHost(cfg, withInProcess(opts))
	t.Cleanup(func() { h.Close() })
	return h
}

func TestAttachByIDAndRank(t *testing.T) {
	sc := threengramMem(t)
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
	st := openState(t)
	cv := hostcore.NewConversations(h, st)
	ctx := context.Background()
	acme, globex := conn(t, h, sc, "acme"), conn(t, h, sc, "globex")
	conv, err := cv.Create(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	own := someIDs(t, acme)
	a, err := cv.AttachID(ctx, conv.ID, acme, own[0])
	if err != nil {
		t.Fatal(err)
	}
	if a.URI != threengram.MemoryURI(own[0]) || a.Origin != hostcore.FromID || a.Template != threengram.MemoryTemplate ||
		a.Annotations.Priority == nil || *a.Annotations.Priority != 0.7 {
		t.Errorf("attachment = %+v", a)
	}
	again, err := cv.AttachID(ctx, conv.ID, acme, own[0])
	if err != nil || again.ID != a.ID {
		t.Errorf("attaching twice made %+v, %v; want the same attachment", again, err)
	}
	// A hostile id stays inside its segment (percent-encoded), so it names
	// no memory and is refused like a missing one.
	if _, err := cv.AttachID(ctx, conv.ID, acme, "../"+own[1]); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("hostile id: %v; want not found", err)
	}
	if _, err := cv.AttachID(ctx, conv.ID, acme, ".."); !errors.Is(err, fault.ErrInvalidParams) {
		t.Errorf("a dot-segment id: %v; want refused", err)
	}
	cv.AttachID(ctx, conv.ID, acme, own[1])
	foreign := someIDs(t, globex)[0]
	if _, err := cv.AttachID(ctx, conv.ID, acme, foreign); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("another tenant's id: %v; want not found", err)
	}
	// A memory attached while readable and then unreadable (here: its
	// server gone from the config) is ranked unreadable, not dropped.
	third, err := cv.AttachID(ctx, conv.ID, acme, own[2])
	if err != nil {
		t.Fatal(err)
	}
	third.Server.Name = "gone"
	cv.RemoveAttachment(ctx, third.ID)
	third.ID = 0
	if _, err := st.AddAttachment(ctx, third); err != nil {
		t.Fatal(err)
	}
	p, atts, err := cv.Rank(ctx, conv.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(atts) != 3 || len(p.Decisions) != 3 {
		t.Fatalf("%d attachments, %d decisions", len(atts), len(p.Decisions))
	}
	verdicts := map[pack.Verdict]int{}
	for _, d := range p.Decisions {
		verdicts[d.Verdict]++
		if d.Verdict == pack.VerdictUnreadable && !strings.Contains(d.Reason, "usage") {
			t.Errorf("unreadable reason %q; want the error kind", d.Reason)
		}
	}
	if verdicts[pack.VerdictIncluded] != 2 || verdicts[pack.VerdictUnreadable] != 1 {
		t.Errorf("verdicts %v; want 2 included and the orphaned one unreadable", verdicts)
	}
	doc := pack.Assemble(p)
	if md := doc.Markdown(); !strings.Contains(md, threengram.MemoryURI(own[0])) || strings.Contains(md, foreign) {
		t.Errorf("assembled document:\n%s", md)
	}
}

func TestAttachIDWithoutIDTemplate(t *testing.T) {
	h := newHost(t, nil)
	cv := hostcore.NewConversations(h, openState(t))
	ctx := context.Background()
	conv, _ := cv.Create(ctx, "x")
	_, err := cv.AttachID(ctx, conv.ID, conn(t, h, mcptestMem(t, mcptest.ModeV2026, nil), ""), "1")
	if !errors.Is(err, fault.ErrInvalidParams) || !strings.Contains(err.Error(), "{id}") {
		t.Errorf("attach by id on a server without an {id} template: %v", err)
	}
}

// TestServerMemoryUpdates is the acceptance with the npm
// server-memory: attach memory://knowledge-graph, call create_entities, and
// the attachment turns stale, re-reads to the new body, with a diff.
func TestServerMemoryUpdates(t *testing.T) {
	sc := config.ServerConfig{Name: "memory", Command: "node", Args: []string{peer(t, "server-memory")},
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}}
	// A configured server: an attachment remembers it by name, and its
	// environment (the memory file) comes from the config, as for a person.
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
	cv := hostcore.NewConversations(h, openState(t))
	ctx := context.Background()
	c, err := h.Conn("memory", "")
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := cv.Create(ctx, "memory")
	a, err := cv.AttachURI(ctx, conv.ID, c, "memory://knowledge-graph")
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan int64, 10)
	w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{OnChange: func(id int64) { changed <- id }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, _ := w.State(a.ID)
	if st.Mode != hostcore.WatchSubscribed {
		t.Fatalf("state %+v; want subscribed", st)
	}
	before := st.Current[0].Text
	cs, _ := c.Session(ctx)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_entities", Arguments: map[string]any{
		"entities": []map[string]any{{"name": "Attaché", "entityType": "host", "observations": []string{"attaches memories"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for st, _ = w.State(a.ID); !st.Stale; st, _ = w.State(a.ID) {
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("no resources/updated turned the attachment stale")
		}
	}
	if err := w.Reread(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	st, _ = w.State(a.ID)
	if st.Stale || st.Current[0].Text == before || !strings.Contains(st.Current[0].Text, "Attaché") {
		t.Errorf("after re-read: stale %v, body %q", st.Stale, st.Current[0].Text)
	}
	if d := w.Diff(a.ID); !strings.Contains(d, "+") || !strings.Contains(d, "Attaché") {
		t.Errorf("diff:\n%s", d)
	}
}

func TestPollingFallbackWithInjectedClock(t *testing.T) {
	p := newPausable(t, 0, "public") // no subscribe capability; each read returns a longer body
	close(p.release)
	clk := newClock()
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), Now: clk.Now})
	cv := hostcore.NewConversations(h, openState(t))
	ctx := context.Background()
	c := conn(t, h, p.config(), "")
	conv, _ := cv.Create(ctx, "poll")
	a, err := cv.AttachURI(ctx, conv.ID, c, "x://slow")
	if err != nil {
		t.Fatal(err)
	}
	w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{Jitter: func() float64 { return 0.5 }})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := w.State(a.ID)
	if st.Mode != hostcore.WatchPolling || st.NextCheck != clk.Now().Add(63*time.Second) {
		t.Fatalf("state %+v; want polling, next check in 60 s + 5%% jitter", st)
	}
	if n := w.Poll(ctx); n != 0 {
		t.Errorf("polled %d before the interval", n)
	}
	clk.Advance(63 * time.Second)
	if n := w.Poll(ctx); n != 1 {
		t.Fatalf("polled %d when due; want 1", n)
	}
	st, _ = w.State(a.ID)
	if !st.Stale || !st.CheckedAt.Equal(clk.Now()) {
		t.Errorf("after a changed body: %+v; want stale, checked now", st)
	}
	if err := w.Reread(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if d := w.Diff(a.ID); !strings.Contains(d, "-vv\n") || !strings.Contains(d, "+vvv\n") { // attach read v, Watch vv, the poll vvv
		t.Errorf("diff:\n%s", d)
	}
	p.srv.Listener.Close()
	p.srv.CloseClientConnections()
	clk.Advance(63 * time.Second)
	w.Poll(ctx)
	st, _ = w.State(a.ID)
	if st.Failures != 1 || st.Err == nil || st.NextCheck != clk.Now().Add(126*time.Second) {
		t.Errorf("after a failed check: %+v; want backoff to 120 s + jitter", st)
	}
}

// TestResubscribeAfterReconnect: the server dies; the watcher's next pass
// reconnects and subscribes again, and updates arrive on the new session.
func TestResubscribeAfterReconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc, mt := mcptestMemT(t, mcptest.ModeV2025Nov, nil)
		h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
		cv := hostcore.NewConversations(h, openState(t))
		ctx := context.Background()
		c, _ := h.Conn(sc.Name, "")
		conv, _ := cv.Create(ctx, "re")
		a, err := cv.AttachURI(ctx, conv.ID, c, mcptest.ReadmeURI)
		if err != nil {
			t.Fatal(err)
		}
		w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if st, _ := w.State(a.ID); st.Mode != hostcore.WatchSubscribed {
			t.Fatalf("mode %s; want subscribed", st.Mode)
		}
		mt.Drop() // the server dies
		synctest.Wait()
		if st := c.Info().State; st != hostcore.StateDisconnected {
			t.Fatalf("state %s after the server died; want disconnected", st)
		}
		w.Poll(ctx) // reconnects; the hook subscribes again
		cs, err := c.Session(ctx)
		if err != nil || c.Info().Connects != 2 {
			t.Fatalf("after the watcher's pass: %d connects, %v", c.Info().Connects, err)
		}
		synctest.Wait() // the resubscription
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "touch", Arguments: map[string]any{"uri": mcptest.ReadmeURI}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st, _ := w.State(a.ID); !st.Stale {
			t.Fatal("no update arrived on the new session: not subscribed again")
		}
	})
}
