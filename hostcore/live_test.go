package hostcore_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// noteServer is a go-sdk server with resources whose bodies the test
// changes (Set tells subscribers, as a server does); it counts reads and
// subscribes per URI.
type noteServer struct {
	srv *mcp.Server

	mu         sync.Mutex
	bodies     map[string]string
	reads      map[string]int
	subscribes map[string]int
	unsubs     map[string]int
	holds      map[string]*heldRead // the next read of a uri waits (holdNext)
}

// heldRead is a read that took its body and waits to answer.
type heldRead struct{ entered, release chan struct{} }

func newNoteServer(version string, subscribe bool, bodies map[string]string) *noteServer {
	n := &noteServer{bodies: bodies, reads: map[string]int{}, subscribes: map[string]int{}, unsubs: map[string]int{}}
	opts := &mcp.ServerOptions{SupportedProtocolVersions: []string{version}}
	if subscribe {
		opts.SubscribeHandler = func(_ context.Context, r *mcp.SubscribeRequest) error {
			n.count(n.subscribes, r.Params.URI)
			return nil
		}
		opts.UnsubscribeHandler = func(_ context.Context, r *mcp.UnsubscribeRequest) error {
			n.count(n.unsubs, r.Params.URI)
			return nil
		}
	}
	n.srv = mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, opts)
	for uri := range bodies {
		n.srv.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: "text/plain"},
			func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				n.mu.Lock()
				n.reads[uri]++
				body, held := n.bodies[uri], n.holds[uri]
				delete(n.holds, uri)
				n.mu.Unlock()
				if held != nil {
					close(held.entered)
					<-held.release
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: body}}}, nil
			})
	}
	return n
}

func (n *noteServer) count(m map[string]int, uri string) {
	n.mu.Lock()
	m[uri]++
	n.mu.Unlock()
}

func (n *noteServer) counts(m map[string]int, uri string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return m[uri]
}

// holdNext makes the next read of uri take its body and then wait until
// release is called; entered is closed once it waits. The body it answers
// is the one it took, as a server's answer on the wire is.
func (n *noteServer) holdNext(uri string) (entered <-chan struct{}, release func()) {
	h := &heldRead{entered: make(chan struct{}), release: make(chan struct{})}
	n.mu.Lock()
	if n.holds == nil {
		n.holds = map[string]*heldRead{}
	}
	n.holds[uri] = h
	n.mu.Unlock()
	return h.entered, func() { close(h.release) }
}

// Set changes a body and tells the subscribers.
func (n *noteServer) Set(t testing.TB, uri, body string) {
	n.mu.Lock()
	n.bodies[uri] = body
	n.mu.Unlock()
	if err := n.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
}

// The live conversation follows every read of an attachment, whoever
// makes it: the server says its body changed (stale, told to observers),
// then a turn's read (Conversations.Items, as Chat.Send's) puts the new
// body in use, with its tokens, and clears the staleness; the observers are
// told, and the previous body is kept for a diff.
func TestLiveFollowsATurnsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		notes := newNoteServer("2025-11-25", true, map[string]string{"note://a": "short", "note://b": "other"})
		sc, _ := serverMem(t, "notes", notes.srv)
		h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
		cv := hostcore.NewConversations(h, openState(t))
		ctx := context.Background()
		conv, _ := cv.Create(ctx, "live")
		c := conn(t, h, sc, "")
		a, err := cv.AttachURI(ctx, conv.ID, c, "note://a")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cv.AttachURI(ctx, conv.ID, c, "note://b"); err != nil {
			t.Fatal(err)
		}
		live, release := cv.Live(conv.ID)
		defer release()
		var mu sync.Mutex
		var told []hostcore.LiveChange
		defer live.OnChange(func(ch hostcore.LiveChange) { mu.Lock(); told = append(told, ch); mu.Unlock() })()
		w, err := cv.Watch(ctx, conv.ID, nil) // loads the live conversation, subscribes
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		before, _ := live.Item(a.ID)
		if !before.Read || before.Item.Contents[0].Text != "short" || before.Tokens != pack.Tokens(before.Item, nil) || before.Tokens == 0 {
			t.Fatalf("after Watch: %+v; want the body read, with its tokens", before)
		}
		long := strings.Repeat("a much longer body, ", 50)
		notes.Set(t, "note://a", long)
		synctest.Wait()
		if it, _ := live.Item(a.ID); !it.Stale || it.Item.Contents[0].Text != "short" {
			t.Fatalf("after the server's notification: stale %v, body %q; want stale, the old body still in use", it.Stale, it.Item.Contents[0].Text)
		}
		mu.Lock()
		told = nil
		mu.Unlock()
		if _, _, err := cv.Items(ctx, conv.ID); err != nil { // a turn's read
			t.Fatal(err)
		}
		after, _ := live.Item(a.ID)
		switch {
		case after.Stale, after.Item.Contents[0].Text != long:
			t.Errorf("after a turn's read: stale %v, body %q; want the new body in use, fresh", after.Stale, after.Item.Contents[0].Text)
		case after.Tokens != pack.Tokens(after.Item, nil) || after.Tokens <= before.Tokens:
			t.Errorf("tokens %d after, %d before; want the new body's count", after.Tokens, before.Tokens)
		case len(after.Previous) != 1 || after.Previous[0].Text != "short":
			t.Errorf("previous = %+v; want the old body, for a diff", after.Previous)
		}
		if !strings.Contains(w.Diff(a.ID), "+"+long[:20]) {
			t.Errorf("diff:\n%s", w.Diff(a.ID))
		}
		mu.Lock()
		var body bool
		for _, ch := range told {
			body = body || (ch.AttachmentID == a.ID && ch.Kind&hostcore.LiveBody != 0)
		}
		mu.Unlock()
		if !body {
			t.Errorf("observers were told %+v; want a body change of attachment %d", told, a.ID)
		}
	})
}

// The stale badge stays until the body in use is the newest (issue 21.8):
// a read that began before the server's latest update answers with the
// body it took, which goes in use, but the attachment stays stale; the
// next read, begun after the update, clears it.
func TestLiveStaysStaleAfterAReadTheUpdateOvertook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		notes := newNoteServer("2025-11-25", true, map[string]string{"note://a": "one"})
		sc, _ := serverMem(t, "notes", notes.srv)
		h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
		cv := hostcore.NewConversations(h, openState(t))
		ctx := context.Background()
		conv, _ := cv.Create(ctx, "live")
		a, err := cv.AttachURI(ctx, conv.ID, conn(t, h, sc, ""), "note://a")
		if err != nil {
			t.Fatal(err)
		}
		live, release := cv.Live(conv.ID)
		defer release()
		w, err := cv.Watch(ctx, conv.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		notes.Set(t, "note://a", "two")
		synctest.Wait()
		entered, answer := notes.holdNext("note://a")
		done := make(chan error)
		go func() { _, _, err := cv.Items(ctx, conv.ID); done <- err }() // a turn's read: it takes "two"
		<-entered
		notes.Set(t, "note://a", "three") // the update overtakes the read in flight
		synctest.Wait()
		answer()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if it, _ := live.Item(a.ID); !it.Stale || it.Item.Contents[0].Text != "two" {
			t.Fatalf("after a read the update overtook: stale %v, body %q; want \"two\" in use, still stale", it.Stale, it.Item.Contents[0].Text)
		}
		if _, _, err := cv.Items(ctx, conv.ID); err != nil { // the next turn
			t.Fatal(err)
		}
		if it, _ := live.Item(a.ID); it.Stale || it.Item.Contents[0].Text != "three" {
			t.Errorf("after the next read: stale %v, body %q; want \"three\" in use, fresh", it.Stale, it.Item.Contents[0].Text)
		}
	})
}

// The Watcher is updated, not rebuilt: an attachment added to the live
// conversation is watched (one subscribe) without reading or subscribing
// to the others again, and one removed is let go (one unsubscribe).
func TestWatcherFollowsAttachments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		notes := newNoteServer("2025-11-25", true, map[string]string{"note://a": "a", "note://b": "b", "note://c": "c"})
		sc, _ := serverMem(t, "notes", notes.srv)
		h := configuredHost(t, nil, sc)
		cv := hostcore.NewConversations(h, openState(t))
		ctx := context.Background()
		conv, _ := cv.Create(ctx, "watched")
		c := conn(t, h, sc, "")
		a, _ := cv.AttachURI(ctx, conv.ID, c, "note://a")
		if _, err := cv.AttachURI(ctx, conv.ID, c, "note://b"); err != nil {
			t.Fatal(err)
		}
		w, err := cv.Watch(ctx, conv.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		readsA, subsA := notes.counts(notes.reads, "note://a"), notes.counts(notes.subscribes, "note://a")
		third, err := cv.AttachURI(ctx, conv.ID, c, "note://c")
		if err != nil {
			t.Fatal(err)
		}
		w.Sync(ctx)
		if st, ok := w.State(third.ID); !ok || st.Mode != hostcore.WatchSubscribed || notes.counts(notes.subscribes, "note://c") != 1 {
			t.Errorf("the attachment added: %+v (watched %v), %d subscribes; want it subscribed once", st, ok, notes.counts(notes.subscribes, "note://c"))
		}
		if r, s := notes.counts(notes.reads, "note://a"), notes.counts(notes.subscribes, "note://a"); r != readsA || s != subsA {
			t.Errorf("note://a was read %d and subscribed %d more times when another was attached; want neither", r-readsA, s-subsA)
		}
		if err := cv.RemoveAttachment(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		w.Poll(ctx) // follows the change first
		if _, ok := w.State(a.ID); ok || notes.counts(notes.unsubs, "note://a") != 1 {
			t.Errorf("the attachment removed: still watched %v, %d unsubscribes; want it let go", ok, notes.counts(notes.unsubs, "note://a"))
		}
		if err := cv.RestoreAttachment(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		w.Sync(ctx)
		if st, ok := w.State(a.ID); !ok || st.Mode != hostcore.WatchSubscribed {
			t.Errorf("the attachment restored: %+v (watched %v); want it subscribed again", st, ok)
		}
	})
}

// Run sleeps on the injected clock, not the wall clock: under synctest's
// fake time a polled item is checked when it is due, and a change of the
// attachments wakes Run at once.
func TestWatcherRunOnInjectedClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		notes := newNoteServer("2025-11-25", false, map[string]string{"note://a": "one", "note://b": "b"})
		sc, _ := serverMem(t, "notes", notes.srv)
		h := configuredHost(t, nil, sc)
		cv := hostcore.NewConversations(h, openState(t))
		ctx, cancel := context.WithCancel(context.Background())
		conv, _ := cv.Create(ctx, "polled")
		c := conn(t, h, sc, "")
		a, _ := cv.AttachURI(ctx, conv.ID, c, "note://a")
		w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{Interval: time.Minute, Jitter: func() float64 { return 0 }})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ran := make(chan struct{})
		go func() { w.Run(ctx); close(ran) }()
		notes.Set(t, "note://a", "two") // no subscription: only a poll finds it
		reads := notes.counts(notes.reads, "note://a")
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if n := notes.counts(notes.reads, "note://a"); n != reads {
			t.Fatalf("checked %d times before the interval", n-reads)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if st, _ := w.State(a.ID); notes.counts(notes.reads, "note://a") != reads+1 || !st.Stale {
			t.Errorf("after the interval: %d checks, stale %v; want one check that found the new body", notes.counts(notes.reads, "note://a")-reads, st.Stale)
		}
		b, err := cv.AttachURI(ctx, conv.ID, c, "note://b")
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // Run wakes for the new attachment, before any item is due
		if _, ok := w.State(b.ID); !ok {
			t.Error("Run did not follow the attachment added")
		}
		cancel()
		<-ran
	})
}

// fakeClock is a clock a test moves: Sleep moves it by the duration asked
// for at once, and records it.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	slept  []time.Duration
	wakeup chan struct{} // told after each Sleep
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.slept = append(f.slept, d)
	f.mu.Unlock()
	f.wakeup <- struct{}{}
	return nil
}

// The Watcher takes its clock from WatchOptions (Now, Sleep), on the wall
// clock's time: Run asks the injected Sleep for the time until the next
// check, as the injected Now tells it, and checks the item once per
// interval of that clock, however little real time has passed.
func TestWatcherSleepsOnInjectedClock(t *testing.T) {
	notes := newNoteServer("2025-11-25", false, map[string]string{"note://a": "one"})
	sc, _ := serverMem(t, "notes", notes.srv)
	h := configuredHost(t, nil, sc)
	cv := hostcore.NewConversations(h, openState(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conv, _ := cv.Create(ctx, "polled")
	a, err := cv.AttachURI(ctx, conv.ID, conn(t, h, sc, ""), "note://a")
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), wakeup: make(chan struct{})}
	w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{Interval: time.Hour, Jitter: func() float64 { return 0 },
		Now: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	reads := notes.counts(notes.reads, "note://a")
	ran := make(chan struct{})
	go func() { w.Run(ctx); close(ran) }()
	for range 3 {
		select {
		case <-clock.wakeup:
		case <-time.After(10 * time.Second): // a deadline, not a wait: the fake clock answers at once
			t.Fatal("Run did not sleep on the injected clock")
		}
	}
	cancel()
	go func() {
		for range clock.wakeup {
		}
	}()
	<-ran
	clock.mu.Lock()
	slept := slices.Clone(clock.slept[:3])
	clock.mu.Unlock()
	if want := []time.Duration{time.Hour, time.Hour, time.Hour}; !slices.Equal(slept, want) {
		t.Errorf("Run slept %v; want an hour each time, the interval on the injected clock", slept)
	}
	if n := notes.counts(notes.reads, "note://a") - reads; n < 2 || n > 3 {
		t.Errorf("%d checks after three hours of the injected clock; want one an hour", n)
	}
	if st, _ := w.State(a.ID); !st.CheckedAt.After(time.Date(2026, 1, 1, 1, 59, 0, 0, time.UTC)) {
		t.Errorf("checked at %v; want the injected clock's time", st.CheckedAt)
	}
}
