package hostcore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/readgate"
	"github.com/attache/attache/internal/threengram"
)

// stuckServer is a go-sdk server over loopback HTTP whose reads
// (slow://item/{n}) wait until released, and which counts the reads in
// flight and the most it saw at once.
type stuckServer struct {
	release chan struct{}
	mu      sync.Mutex
	now     int
	most    int
	srv     *httptest.Server
}

func newStuckServer(t *testing.T) *stuckServer {
	st := &stuckServer{release: make(chan struct{})}
	s := mcp.NewServer(&mcp.Implementation{Name: "stuck"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "slow://item/{n}", Name: "item"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			st.mu.Lock()
			st.now++
			st.most = max(st.most, st.now)
			st.mu.Unlock()
			defer func() { st.mu.Lock(); st.now--; st.mu.Unlock() }()
			select {
			case <-st.release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "late"}}}, nil
		})
	st.srv = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(st.srv.Close)
	t.Cleanup(st.unstick)
	return st
}

func (st *stuckServer) config() config.ServerConfig {
	return config.ServerConfig{Name: "stuck", URL: st.srv.URL}
}

// inFlight returns the reads waiting in the server now, and the most at once.
func (st *stuckServer) inFlight() (now, most int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.now, st.most
}

var unstuck sync.Map

func (st *stuckServer) unstick() {
	if _, done := unstuck.LoadOrStore(st, true); !done {
		close(st.release)
	}
}

// TestSlowServerHoldsUpOnlyItsOwnReads: a conversation with twenty
// attachments on a server that does not answer and three on threengram
// (over stdio): the threengram memories are read while the slow server
// still holds its reads, and the slow server never has more than its share in
// flight. Before, eight reads in all were the limit, so the slow server's
// took them all and the fast server's read waited for it.
func TestSlowServerHoldsUpOnlyItsOwnReads(t *testing.T) {
	ctx := context.Background()
	slow, fast := newStuckServer(t), threengramMem(t)
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, slow.config(), fast)
	st := openState(t)
	cv := hostcore.NewConversations(h, st)
	conv, err := cv.Create(ctx, "mixed")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		a := hostcore.Attachment{ConversationID: conv.ID, Server: hostcore.ServerRef{Name: "stuck"},
			URI: fmt.Sprintf("slow://item/%d", i), Origin: hostcore.FromTemplate}
		if _, err := st.AddAttachment(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	acme := conn(t, h, fast, "acme")
	var uris []string
	for _, id := range someIDs(t, acme)[:3] {
		uris = append(uris, threengram.MemoryURI(id))
		if _, err := st.AddAttachment(ctx, hostcore.Attachment{ConversationID: conv.ID,
			Server: hostcore.ServerRef{Name: "threengram"}, Account: "acme", URI: uris[len(uris)-1], Origin: hostcore.FromID}); err != nil {
			t.Fatal(err)
		}
	}
	answered := func() int {
		n := 0
		for _, uri := range uris {
			if ex, ok := acme.Tap().Find("resources/read", uri); ok && ex.Response != nil {
				n++
			}
		}
		return n
	}

	done := make(chan []*pack.Item, 1)
	go func() {
		items, _, err := cv.Items(ctx, conv.ID)
		if err != nil {
			t.Error(err)
		}
		done <- items
	}()
	// Both at once: threengram's reads answered, and the slow server
	// holding every read it may have (it answers none until unstuck).
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := answered()
		now, _ := slow.inFlight()
		if n == len(uris) && now == readgate.DefaultPerConn {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: %d of threengram's %d reads answered, the slow server holding %d; want all answered beside %d held",
				n, len(uris), now, readgate.DefaultPerConn)
		}
		time.Sleep(10 * time.Millisecond)
	}
	slow.unstick()
	items := <-done
	for _, it := range items {
		if it.ReadErr != nil || len(it.Contents) != 1 {
			t.Errorf("%s: %v, %d contents; want its body", it.URI, it.ReadErr, len(it.Contents))
		}
	}
	if _, most := slow.inFlight(); most > readgate.DefaultPerConn {
		t.Errorf("the slow server had %d reads at once; want no more than %d", most, readgate.DefaultPerConn)
	}
}
