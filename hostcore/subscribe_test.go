package hostcore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
)

// subscribeServer is a go-sdk server with one resource whose subscribe
// handler the test steers: each call is handed to answer, which returns the
// server's answer.
func subscribeServer(version string, answer func(call int) error) *mcp.Server {
	var mu sync.Mutex
	calls := 0
	srv := mcp.NewServer(&mcp.Implementation{Name: "subs", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{version},
		SubscribeHandler: func(context.Context, *mcp.SubscribeRequest) error {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			return answer(n)
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	srv.AddResource(&mcp.Resource{URI: "subs://one", Name: "one", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "subs://one", MIMEType: "text/plain", Text: "one"}}}, nil
		})
	return srv
}

// A second borrower that asks while the first Subscribe is in flight is not
// told it is subscribed on the strength of a request the server then
// refuses: it waits for the answer, and then asks the server itself. Only
// acknowledged borrowers are counted. Before 2026-07-28 the refusal is the
// answer to resources/subscribe; on 2026-07-28 it is the absence of the
// server's acknowledgement (go-sdk drops the listen's error answer), which
// the request timeout ends.
func TestSubscribeCountsOnlyAcknowledged(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { testSubscribeCountsOnlyAcknowledged(t, version) })
	}
}

func testSubscribeCountsOnlyAcknowledged(t *testing.T, version string) {
	synctest.Test(t, func(t *testing.T) {
		arrived, release := make(chan struct{}), make(chan struct{})
		refused := errors.New("not now")
		var mu sync.Mutex
		calls := 0
		srv := subscribeServer(version, func(n int) error {
			mu.Lock()
			calls = n
			mu.Unlock()
			if n == 1 {
				close(arrived)
				<-release
				return refused
			}
			return nil
		})
		sc, _ := serverMem(t, "subs", srv)
		h := hostcore.NewHost(nil, withInProcess(nil))
		defer h.Close()
		c := conn(t, h, sc, "")
		ctx := context.Background()
		if cs, err := c.Session(ctx); err != nil || cs.InitializeResult().ProtocolVersion != version {
			t.Fatalf("session: %v; want %s", err, version)
		}
		first, second := make(chan error, 1), make(chan error, 1)
		go func() { first <- c.Subscribe(ctx, "subs://one") }()
		<-arrived
		go func() { second <- c.Subscribe(ctx, "subs://one") }()
		synctest.Wait() // the second borrower is waiting, or (wrongly) already answered
		select {
		case err := <-second:
			t.Fatalf("the second Subscribe returned %v before the server answered the first", err)
		default:
		}
		if n := c.Subscriptions()["subs://one"]; n != 0 {
			t.Errorf("%d borrowers counted before the server answered; want 0", n)
		}
		close(release)
		if err := <-first; err == nil {
			t.Error("the first Subscribe succeeded; the server refused it")
		}
		if err := <-second; err != nil {
			t.Errorf("the second Subscribe = %v; want it to ask the server itself and succeed", err)
		}
		mu.Lock()
		if calls != 2 {
			t.Errorf("the server was asked %d times; want 2 (the refused request, then the second borrower's)", calls)
		}
		mu.Unlock()
		if n := c.Subscriptions()["subs://one"]; n != 1 {
			t.Errorf("%d borrowers counted; want the one the server acknowledged", n)
		}
		if err := c.Subscribe(ctx, "subs://one"); err != nil || c.Subscriptions()["subs://one"] != 2 || calls != 2 {
			t.Errorf("a third borrower: %v, %d counted, %d calls; want it counted without asking", err, c.Subscriptions()["subs://one"], calls)
		}
	})
}
