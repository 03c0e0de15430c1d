package hostcore_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/threengram"
)

// threengramOAuth serves the reference server on loopback with OAuth,
// approving tenant=NAME on a GET of its login page (a test's stand-in for
// the person), and returns a config entry with one account that signs in.
func threengramOAuth(t *testing.T) config.ServerConfig {
	t.Helper()
	s := seededStore(t)
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = threengram.NewHTTPHandler(s, &threengram.HTTPOptions{
		OAuth: &threengram.OAuthOptions{Issuer: issuer, AutoApprove: true}})
	srv.Start()
	t.Cleanup(srv.Close)
	return config.ServerConfig{Name: "tg", URL: issuer + "/mcp", Accounts: []config.Account{{Name: "me"}}}
}

// approveAcme opens page as a browser would, approving tenant acme. The
// browser's request outlives the sign-in's context: the host's answer page
// comes once the sign-in has ended.
func approveAcme(ctx context.Context, page string) error {
	ctx = context.WithoutCancel(ctx)
	u, err := url.Parse(page)
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set("tenant", "acme")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// A presenter may hold the page up until its context ends, which happens
// once the sign-in has ended: by then the grant is kept, so what showed
// the page can show who signed in. It is told whose sign-in it shows.
func TestPresentHoldsUntilSignedIn(t *testing.T) {
	sc := threengramOAuth(t)
	var h *hostcore.Host
	kept := make(chan *signin.Grant, 1)
	h = newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{
		Present: func(ctx context.Context, page signin.Page) error {
			if page.Server != "tg" || page.Account != "me" {
				t.Errorf("presented %+v, want server tg, account me", page)
			}
			if err := approveAcme(ctx, page.URL); err != nil {
				return err
			}
			<-ctx.Done()
			g, err := h.SignIns().GrantOf(context.Background(), sc, "me")
			if err != nil {
				t.Error(err)
			}
			kept <- g
			return ctx.Err()
		}}})
	g, err := h.Login(context.Background(), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := <-kept; got == nil || got.ID != g.ID {
		t.Errorf("when the page's context ended, the store kept %+v, want the new grant %s", got, g.ID)
	}
}

// A sign-in the person cancels ends as canceled, not as refused
// credentials (the 401 that started it), and a connection whose sign-in
// was canceled does not ask again: go-sdk's own second opening (initialize
// after server/discover) and the reads that come later fail at once,
// asking for a sign-in, instead of putting the page back up. Login asks
// again.
func TestCanceledSignIn(t *testing.T) {
	sc := threengramOAuth(t)
	var presented atomic.Int32
	var mode atomic.Int32 // 0: the person cancels; 1: the caller's context is canceled; 2: approve
	var cancelLogin context.CancelFunc
	h := newHost(t, &hostcore.HostOptions{OAuth: &signin.Options{
		Present: func(ctx context.Context, page signin.Page) error {
			presented.Add(1)
			switch mode.Load() {
			case 0:
				return context.Canceled
			case 1:
				cancelLogin()
				<-ctx.Done()
				return ctx.Err()
			}
			return approveAcme(ctx, page.URL)
		}}})
	ctx := context.Background()
	c, err := h.ConnFor(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // reads the person asked for
		_, err = c.Complete(signin.MayStart(ctx), threengram.MemoryTemplate, "id", "", nil)
		if !errors.Is(err, signin.ErrNeeded) || !strings.Contains(err.Error(), "the sign-in was canceled") {
			t.Errorf("reading after a canceled sign-in: %v; want sign-in needed, saying it was canceled", err)
		}
	}
	if n := presented.Load(); n != 1 {
		t.Errorf("%d pages presented for two reads after a cancel, want 1", n)
	}

	mode.Store(1)
	lctx, cancel := context.WithCancel(ctx)
	cancelLogin = cancel
	if _, err := h.Login(lctx, sc, ""); !errors.Is(err, fault.ErrCanceled) || strings.Contains(err.Error(), "refused") {
		t.Errorf("a Login canceled while its page is up: %v; want canceled, not refused", err)
	}
	mode.Store(2)
	if _, err := h.Login(ctx, sc, ""); err != nil || presented.Load() != 3 {
		t.Errorf("Login after canceled sign-ins: %v, %d pages presented in all, want 3", err, presented.Load())
	}
}

// Which accounts sign in: those of an HTTP server that send no credential
// of the config's own, in a host with sign-in on.
func TestCanSignIn(t *testing.T) {
	on := hostcore.NewHost(nil, withInProcess(&hostcore.HostOptions{OAuth: &signin.Options{}}))
	defer on.Close()
	off := hostcore.NewHost(nil, withInProcess(nil))
	defer off.Close()
	tests := []struct {
		name string
		h    *hostcore.Host
		sc   config.ServerConfig
		want bool
	}{
		{"http", on, config.ServerConfig{Name: "s", URL: "http://127.0.0.1:1/mcp"}, true},
		{"oauth off", off, config.ServerConfig{Name: "s", URL: "http://127.0.0.1:1/mcp"}, false},
		{"stdio", on, config.ServerConfig{Name: "s", Command: "server"}, false},
		{"own header", on, config.ServerConfig{Name: "s", URL: "http://127.0.0.1:1/mcp",
			Accounts: []config.Account{{Name: "a", Headers: map[string]string{"authorization": "Bearer x"}}}}, false},
		{"server header", on, config.ServerConfig{Name: "s", URL: "http://127.0.0.1:1/mcp",
			Headers: map[string]string{"Authorization": "Bearer x"}}, false},
		{"userinfo", on, config.ServerConfig{Name: "s", URL: "http://u:p@127.0.0.1:1/mcp"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.h.SignIns().CanSignIn(tt.sc, ""); got != tt.want {
				t.Errorf("CanSignIn = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSignInOutlastsTheConnectTimeout: a person takes longer in the browser
// than a connect may take. The sign-in keeps to its own timeout, the grant
// is kept, and Login connects again with it.
func TestSignInOutlastsTheConnectTimeout(t *testing.T) {
	sc := threengramOAuth(t)
	h := newHost(t, &hostcore.HostOptions{ConnectTimeout: 500 * time.Millisecond, OAuth: &signin.Options{
		Present: func(ctx context.Context, page signin.Page) error {
			select {
			case <-time.After(1500 * time.Millisecond): // reading the page, choosing a tenant
			case <-ctx.Done():
				return ctx.Err()
			}
			return approveAcme(ctx, page.URL)
		}}})
	g, err := h.Login(context.Background(), sc, "")
	if err != nil {
		t.Fatalf("a sign-in longer than the connect timeout: %v", err)
	}
	c, _ := h.ConnFor(sc, "")
	if _, err := c.Read(context.Background(), "threengram://memory/nope", hostcore.ReadUse); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("a read after signing in as %s: %v; want the server's not found", g.Account, err)
	}
}
