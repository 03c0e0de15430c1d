package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/internal/mcptest"
)

// memoryServer is the npm server-memory over stdio, on a fresh graph file.
func memoryServer(t *testing.T) config.ServerConfig {
	file := filepath.Join(t.TempDir(), "memory.jsonl")
	return config.ServerConfig{Name: "memory", Command: "node", Args: []string{peer(t, "server-memory")},
		Env: map[string]string{"MEMORY_FILE_PATH": file}}
}

const graphURI = "memory://knowledge-graph"

// askedCall runs a tool as a person's own call (the request is the
// approval), through the consent gate; a destructive one is confirmed.
func askedCall(t *testing.T, h *hostcore.Host, c *hostcore.Conn, name, args string) *hostcore.ToolResult {
	t.Helper()
	scope, err := h.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson,
		Ask: func(context.Context, consent.ToolRequest) (consent.Approval, error) {
			return consent.ApproveOnce, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := c.CallTool(ctx, scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: name}, Arguments: json.RawMessage(args)}))
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res
}

// updatesOf counts the notifications/resources/updated of uri the tap
// received after the message numbered after.
func updatesOf(c *hostcore.Conn, uri string, after uint64) int {
	entries, _ := c.Tap().History()
	n := 0
	for _, e := range entries {
		var msg struct {
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		if e.Seq > after && e.Method == "notifications/resources/updated" && json.Unmarshal(e.Raw, &msg) == nil && msg.Params.URI == uri {
			n++
		}
	}
	return n
}

// The person's subscription is one counted borrow: the registry counts
// the server's updates of it and marks an open body stale; giving it back
// leaves another borrower's (an attachment's watch) in place, and the
// server keeps notifying; once the last borrower gives it back, the server
// sends nothing more.
func TestSubscriptionsAreCountedBorrows(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, memoryServer(t), "")
	subs := h.Subscriptions()
	ctx := context.Background()
	changes := make(chan struct{}, 64)
	defer subs.OnChange(func() {
		select {
		case changes <- struct{}{}:
		default:
		}
	})()
	if err := subs.Subscribe(ctx, c, graphURI); err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe(ctx, graphURI); err != nil { // as an attachment's watch does
		t.Fatal(err)
	}
	if len(changes) == 0 {
		t.Error("subscribing told no observer")
	}
	sub, ok := subs.Find(c, graphURI)
	if !ok || !sub.Yours || sub.Borrowers != 2 || sub.Method != "resources/subscribe" || sub.Updates != 0 {
		t.Fatalf("after two borrows the registry holds %+v (found %v); want yours, 2 borrowers, resources/subscribe, no update", sub, ok)
	}
	open := subs.Open(c, graphURI)
	defer open.Close()
	askedCall(t, h, c, "create_entities", `{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}`)
	waitUntil(t, "the update to be counted", func() bool { s, _ := subs.Find(c, graphURI); return s.Updates == 1 })
	if st := open.State(); !st.Stale || st.Updates != 1 || st.LastUpdate.IsZero() {
		t.Errorf("the open body after an update: %+v; want stale, 1 update, its time", st)
	}
	if sub, _ := subs.Find(c, graphURI); !sub.Open || !sub.Stale || sub.LastUpdate.IsZero() {
		t.Errorf("the subscription after an update: %+v; want its open body stale and the update's time", sub)
	}
	open.Current()
	if st := open.State(); st.Stale {
		t.Error("a body read again is still stale")
	}

	if err := subs.Unsubscribe(ctx, c, graphURI); err != nil {
		t.Fatal(err)
	}
	if err := subs.Unsubscribe(ctx, c, graphURI); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("a second Unsubscribe = %v; want a usage error (the person holds none)", err)
	}
	sub, ok = subs.Find(c, graphURI)
	if !ok || sub.Yours || sub.Borrowers != 1 {
		t.Fatalf("after the person gave theirs back: %+v (found %v); want the watch's borrow alone", sub, ok)
	}
	mark := lastSeq(c)
	askedCall(t, h, c, "create_entities", `{"entities":[{"name":"Grace","entityType":"person","observations":["found a moth"]}]}`)
	if n := updatesOf(c, graphURI, mark); n != 1 {
		t.Errorf("the server sent %d updates with the watch's borrow alone; want 1: the person's Unsubscribe must not end it", n)
	}

	if err := c.Unsubscribe(ctx, graphURI); err != nil {
		t.Fatal(err)
	}
	if _, ok := subs.Find(c, graphURI); ok {
		t.Error("a subscription no one holds is still listed")
	}
	mark = lastSeq(c)
	askedCall(t, h, c, "create_entities", `{"entities":[{"name":"Edsger","entityType":"person","observations":["shunned goto"]}]}`)
	if n := updatesOf(c, graphURI, mark); n != 0 {
		t.Errorf("the server sent %d updates after the last Unsubscribe", n)
	}
}

// A server without resources.subscribe is not asked, and the registry
// holds nothing.
func TestSubscriptionsNotOffered(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModePaged, "--resources", "3"), "")
	err := h.Subscriptions().Subscribe(context.Background(), c, mcptest.PagedURI(0))
	if !errors.Is(err, hostcore.ErrNotOffered) {
		t.Fatalf("Subscribe = %v; want ErrNotOffered", err)
	}
	if l := h.Subscriptions().List(); len(l) != 0 {
		t.Errorf("after a refused Subscribe the registry holds %+v", l)
	}
}

// At 2026-07-28 the person's subscription is a subscriptions/listen, and
// its updates are counted the same way.
func TestSubscriptions2026(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModeV2026), "")
	subs := h.Subscriptions()
	ctx := context.Background()
	if err := subs.Subscribe(ctx, c, mcptest.ReadmeURI); err != nil {
		t.Fatal(err)
	}
	if sub, _ := subs.Find(c, mcptest.ReadmeURI); sub.Method != "subscriptions/listen" {
		t.Errorf("the 2026-07-28 subscription goes as %q; want subscriptions/listen", sub.Method)
	}
	// The listen stream may open after Subscribe returns: touch until the
	// update comes.
	waitUntil(t, "an update of the readme", func() bool {
		askedCall(t, h, c, "touch", `{"uri":"`+mcptest.ReadmeURI+`"}`)
		sub, _ := subs.Find(c, mcptest.ReadmeURI)
		return sub.Updates > 0
	})
	if err := subs.Unsubscribe(ctx, c, mcptest.ReadmeURI); err != nil {
		t.Fatal(err)
	}
	if _, ok := subs.Find(c, mcptest.ReadmeURI); ok {
		t.Error("the subscription is still listed after the only borrower gave it back")
	}
}

func lastSeq(c *hostcore.Conn) uint64 {
	msgs := c.Tap().Messages()
	if len(msgs) == 0 {
		return 0
	}
	return msgs[len(msgs)-1].Seq
}

// waitUntil polls cond until it holds, or fails the test after a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
