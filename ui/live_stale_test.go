package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
)

// noteURI is the one resource of heldNotes.
const noteURI = "note://a"

// heldNotes is a go-sdk server, served in-process, with one resource that
// declares subscriptions: Set changes its body and tells the subscribers,
// and holdNext makes the next read wait after it took its body, so that a
// test can send an update while the read is on its way.
type heldNotes struct {
	srv *mcp.Server

	mu   sync.Mutex
	body string
	hold chan struct{} // the next read waits for it to close
	took chan struct{} // closed once the held read took its body
}

func newHeldNotes(body string) *heldNotes {
	n := &heldNotes{body: body}
	n.srv = mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	n.srv.AddResource(&mcp.Resource{URI: noteURI, Name: "note", Title: "Note", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			n.mu.Lock()
			body, hold, took := n.body, n.hold, n.took
			n.hold, n.took = nil, nil
			n.mu.Unlock()
			if hold != nil {
				close(took)
				<-hold
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: noteURI, MIMEType: "text/plain", Text: body}}}, nil
		})
	return n
}

// holdNext makes the next read wait; took is closed once it has its body.
func (n *heldNotes) holdNext() (took <-chan struct{}, release func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	hold, entered := make(chan struct{}), make(chan struct{})
	n.hold, n.took = hold, entered
	return entered, func() { close(hold) }
}

// Set changes the body and tells the subscribers.
func (n *heldNotes) Set(t *testing.T, body string) {
	n.mu.Lock()
	n.body = body
	n.mu.Unlock()
	if err := n.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: noteURI}); err != nil {
		t.Fatal(err)
	}
}

// notesHarness is the window with heldNotes beside the usual servers, its
// note attached (the attachments' watch subscribes to it). updated is told
// each update once the host, the watch and the live conversation have
// taken it (its hook runs after theirs).
func notesHarness(t *testing.T) (h *harness, n *heldNotes, updated <-chan string) {
	n = newHeldNotes("one")
	st := mcptest.NewServerTransport(n.srv)
	h = &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = inProcessServer("notes")
	h.transport = serveOnly("notes", st)
	h.open()
	if err := h.try(func() error { return h.app.SelectServer("notes", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource(noteURI) }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.shortcut(shortcutAttach)
	h.settle()
	p := h.app.attachments
	h.do(func() {
		if len(p.rows) != 1 || p.rows[0].watch.Mode != hostcore.WatchSubscribed {
			t.Fatalf("rows = %+v, want the note, subscribed", p.rows)
		}
	})
	c, err := h.host.Conn("notes", "")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 16)
	t.Cleanup(c.OnResourceUpdated(func(uri string) { ch <- uri }))
	return h, n, ch
}

// inProcessServer is a built-in server named name that the host reaches
// through its injected transport (serveOnly), not a program.
func inProcessServer(name string) []config.ServerConfig {
	return []config.ServerConfig{{Name: name, Title: name, Source: "builtin", Command: "in-process"}}
}

// serveOnly is a transport factory that serves the server named name
// through st, and leaves every other to its command.
func serveOnly(name string, st hostcore.Dialer) hostcore.TransportFactory {
	return func(sc config.ServerConfig, _ config.Account) hostcore.Dialer {
		if sc.Name == name {
			return st
		}
		return nil
	}
}

// receive waits for one value of ch, with a deadline.
func receive[T any](t *testing.T, what string, ch <-chan T) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitTimeout):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// The stale badge stays until the body in use is the newest (issue 21.8):
// a Re-read that the server's next update overtakes puts the body it
// fetched in use, and the row stays stale; a Re-read after it clears the
// badge.
func TestStaleBadgeOutlivesAReadTheUpdateOvertook(t *testing.T) {
	h, notes, updated := notesHarness(t)
	p := h.app.attachments
	notes.Set(t, "two")
	receive(t, "the first update", updated)
	h.waitFor("the stale badge", func() bool {
		var stale bool
		h.do(func() { stale = len(p.rows) == 1 && p.rows[0].kept.Stale })
		return stale
	})
	took, release := notes.holdNext()
	h.do(func() { test.Tap(rowWidgets(p.list)[0].reread) })
	receive(t, "the Re-read to reach the server", took)
	notes.Set(t, "three")
	receive(t, "the second update", updated)
	release()
	h.settle()
	h.do(func() {
		x, row := p.rows[0], rowWidgets(p.list)[0]
		if text := x.kept.Item.Contents[0].Text; text != "two" || !x.kept.Stale || row.stale.Hidden {
			t.Errorf("after a Re-read the update overtook: body %q, stale %v, badge hidden %v; want \"two\" in use with the badge", text, x.kept.Stale, row.stale.Hidden)
		}
		test.Tap(row.reread)
	})
	h.settle()
	h.do(func() {
		x, row := p.rows[0], rowWidgets(p.list)[0]
		if text := x.kept.Item.Contents[0].Text; text != "three" || x.kept.Stale || !row.stale.Hidden {
			t.Errorf("after the next Re-read: body %q, stale %v, badge hidden %v; want \"three\", no badge", text, x.kept.Stale, row.stale.Hidden)
		}
	})
}

// The inspector's body is stale when the server's update overtakes the
// read that fetched it: the update lands after the server answered and
// before the body is shown.
func TestInspectorStaleWhenTheUpdateOvertakesTheRead(t *testing.T) {
	h, notes, updated := notesHarness(t)
	h.do(func() { h.app.Read(noteURI) })
	h.settle()
	w := h.app.inspector.watch
	h.do(func() {
		if !strings.HasPrefix(w.stale.Text, "Current:") {
			t.Fatalf("a body just read says %q", w.stale.Text)
		}
	})
	took, release := notes.holdNext()
	h.do(func() { h.app.inspector.again(hostcore.ReadRefresh) })
	receive(t, "the read to reach the server", took)
	notes.Set(t, "two")
	receive(t, "the update", updated)
	release()
	h.settle()
	if !h.staleShown() {
		h.do(func() { t.Errorf("the body the update overtook says %q; want Stale", w.stale.Text) })
	}
}
