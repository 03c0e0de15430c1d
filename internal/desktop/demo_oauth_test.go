package desktop

import (
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/threengram"
)

// The demo over HTTP with OAuth, as the app serves it: a host signs in on
// threengram's own login page (the person's part played as a browser would:
// the form posted with a tenant and Approve), and the account then reads
// that tenant's memories. A taken port makes the server take another.
func TestDemoOAuthServer(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	d, err := startDemoOAuth(taken.Addr().String(), filepath.Join(t.TempDir(), "demo.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if strings.Contains(d.endpoint, taken.Addr().String()) || !strings.HasPrefix(d.endpoint, "http://127.0.0.1:") {
		t.Errorf("with its port taken, the server is at %s", d.endpoint)
	}

	sc := hostcore.DemoOAuthServer(d.endpoint)
	var (
		mu    sync.Mutex
		pages []signin.Page
	)
	h := hostcore.NewHost(nil, &hostcore.HostOptions{Builtin: []config.ServerConfig{sc},
		OAuth: &signin.Options{Present: func(_ context.Context, page signin.Page) error {
			mu.Lock()
			pages = append(pages, page)
			mu.Unlock()
			return ApproveSignIn(page.URL, "globex")
		}}})
	defer h.Close()
	ctx := context.Background()
	g, err := h.Login(ctx, sc, "")
	if err != nil {
		t.Fatalf("signing in: %v", err)
	}
	if issuer := strings.TrimSuffix(d.endpoint, "/mcp"); g.Issuer != issuer || g.Account != "me" {
		t.Errorf("grant: issuer %s, account %s; want %s, me", g.Issuer, g.Account, issuer)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(pages) != 1 || pages[0].Server != hostcore.DemoOAuthServerName || pages[0].Account != "me" {
		t.Errorf("pages presented: %+v", pages)
	}
	c, err := h.Conn(hostcore.DemoOAuthServerName, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Complete(ctx, threengram.MemoryTemplate, "id", "", nil)
	if err != nil || len(got.Values) == 0 {
		t.Fatalf("completing ids after signing in: %v, %v", got, err)
	}
	r, err := c.Read(ctx, threengram.MemoryURI(got.Values[0]), hostcore.ReadUse)
	if err != nil || len(r.Contents) != 1 {
		t.Fatalf("reading a memory of globex: %v, %v", r, err)
	}
}
