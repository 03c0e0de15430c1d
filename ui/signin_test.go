package ui

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/threengram"
)

// oauthServer runs the threengram reference server over loopback HTTP
// with OAuth (httptest, in the test's process) on a seeded store, approving
// a GET of its login page that names tenant=NAME without a person (what
// threengram --oauth-auto-approve turns on), so that the test can play the
// person at the browser. It returns the server's /mcp endpoint.
func oauthServer(t *testing.T) string {
	t.Helper()
	store, err := threengram.OpenStore(filepath.Join(t.TempDir(), "tg.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if _, err := store.Seed(context.Background(), assets.Corpus); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = threengram.NewHTTPHandler(store, &threengram.HTTPOptions{
		OAuth: &threengram.OAuthOptions{Issuer: issuer, AutoApprove: true}})
	srv.Start()
	t.Cleanup(srv.Close)
	return issuer + "/mcp"
}

// newOAuthHarness is a window over a host that signs in, with the server
// above as the built-in "demo-oauth" (one account, "me"). The host's pages
// go to the window (App.PresentSignIn), as cmd/attache wires them; the test
// is the browser (approve).
func newOAuthHarness(t *testing.T) *harness { t.Helper(); return newOAuthHarnessWith(t, nil) }

// newOAuthHarnessWith is newOAuthHarness, with edit changing the harness
// before the window opens.
func newOAuthHarnessWith(t *testing.T, edit func(*harness)) *harness {
	t.Helper()
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = []config.ServerConfig{hostcore.DemoOAuthServer(oauthServer(t))}
	h.oauth = &signin.Options{Timeout: waitTimeout,
		Present: func(ctx context.Context, page signin.Page) error { return h.app.PresentSignIn(ctx, page) }}
	h.openURL = func(u *url.URL) error { // the browser: it takes the page, and the test plays the person
		h.opened.Add(1)
		return nil
	}
	if edit != nil {
		edit(h)
	}
	h.open()
	return h
}

var demoOAuthKey = signInKey{hostcore.DemoOAuthServerName, "me"}

// waitForPage waits until the row of key shows the page the host waits on,
// and returns its address.
func (h *harness) waitForPage(key signInKey) string {
	h.t.Helper()
	var page string
	h.waitFor("the sign-in page to show", func() bool {
		shown := false
		h.do(func() {
			page = h.app.SignInPage(key.server, key.account)
			r := h.app.servers.rowOf(key)
			shown = page != "" && r != nil && !r.link.Hidden && r.link.URL != nil && r.link.URL.String() == page
		})
		return shown
	})
	return page
}

// approve is the person at the browser: it opens page and picks tenant,
// and the browser follows the redirect back to the host's loopback
// listener.
func approve(t *testing.T, page, tenant string) {
	t.Helper()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("tenant", tenant)
	u.RawQuery = q.Encode()
	resp, err := http.Get(u.String())
	if err != nil {
		t.Fatalf("opening the sign-in page: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if back := resp.Request.URL.String(); resp.StatusCode != http.StatusOK || !strings.HasPrefix(back, q.Get("redirect_uri")) {
		t.Fatalf("the sign-in ended at %s (%s), not at the host's redirect %s", back, resp.Status, q.Get("redirect_uri"))
	}
}

// grantsOf returns the kept sign-ins of the demo's account.
func (h *harness) grantsOf(key signInKey) []signin.Grant {
	h.t.Helper()
	all, err := h.host.SignIns().Grants(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	var out []signin.Grant
	for _, g := range all {
		if g.Server == key.server && g.Account == key.account {
			out = append(out, g)
		}
	}
	return out
}

// Sign in on the card: the row waits for the browser (the page's host and
// path, Copy, Cancel), then says who is signed in where, with which scopes
// and until when, never the token; the account's connection works. Sign out
// returns the row to Sign in and the grant is gone.
func TestSignInAndOut(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	if r == nil || r.action.Text != "Sign in" || r.status.Text != "me · not signed in" {
		t.Fatalf("the demo-oauth card before signing in: %+v", r)
	}
	assertMarkupAt(t, "signin_signed_out.xml", r.root, r.root.Size().Width)

	h.do(func() { test.Tap(r.action) })
	page := h.waitForPage(demoOAuthKey)
	h.do(func() {
		if r.status.Text != "me · waiting for the sign-in in your browser…" || !r.action.Hidden ||
			r.link.Hidden || r.link.URL.String() != page || !strings.HasSuffix(r.link.Text, "/authorize") || r.cancel.Hidden {
			t.Errorf("waiting: status %q, action hidden %v, link %q (%v)", r.status.Text, r.action.Hidden, r.link.Text, r.link.URL)
		}
	})
	assertMarkupAt(t, "signin_waiting.xml", r.root, r.root.Size().Width)
	h.do(func() { test.Tap(r.copy) })
	if got := h.fa.Clipboard().Content(); got != page {
		t.Errorf("Copy link put %q on the clipboard, want the page's address", got)
	}

	approve(t, page, "acme")
	h.settle()
	grants := h.grantsOf(demoOAuthKey)
	if len(grants) != 1 {
		t.Fatalf("after signing in, %d grants are kept, want 1", len(grants))
	}
	g := grants[0]
	issuer := strings.TrimSuffix(h.card(hostcore.DemoOAuthServerName).sc.URL, "/mcp")
	if r.status.Text != "me · signed in as acme" || r.action.Text != "Sign out" || g.Issuer != issuer || g.Subject != "acme" ||
		!strings.Contains(r.detail.Text, "at "+issuer) || !strings.Contains(r.detail.Text, "scopes memory:read") ||
		!strings.Contains(r.detail.Text, ", then renewed") {
		t.Errorf("signed in: status %q, action %q, detail %q (grant at %s)", r.status.Text, r.action.Text, r.detail.Text, g.Issuer)
	}
	if strings.Contains(r.detail.Text, g.Token.AccessToken) || strings.Contains(r.detail.Text, g.Token.RefreshToken) {
		t.Errorf("the card shows a token: %q", r.detail.Text)
	}
	if !r.cancel.Hidden || !r.link.Hidden {
		t.Error("the wait's link and buttons still show after signing in")
	}
	assertMarkupAt(t, "signin_signed_in.xml", r.root, r.root.Size().Width)
	c, err := h.host.Conn(hostcore.DemoOAuthServerName, "me")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Complete(context.Background(), threengram.MemoryTemplate, "id", "m", nil); err != nil || len(got.Values) == 0 {
		t.Errorf("completing acme's ids after signing in: %v, %v", got, err)
	}

	h.do(func() { test.Tap(r.action) })
	h.settle()
	if r.action.Text != "Sign in" || r.status.Text != "me · not signed in" || r.detail.Text != "You signed out." {
		t.Errorf("after Sign out: action %q, status %q, detail %q", r.action.Text, r.status.Text, r.detail.Text)
	}
	if n := len(h.grantsOf(demoOAuthKey)); n != 0 {
		t.Errorf("after Sign out, %d grants are kept", n)
	}
	if !strings.HasPrefix(h.app.status.Text, "Signed out of demo-oauth as me") {
		t.Errorf("status line after Sign out: %q", h.app.status.Text)
	}
	assertMarkupAt(t, "signin_after_sign_out.xml", r.root, r.root.Size().Width)
}

// Cancel while the browser is out ends the host's wait (its loopback
// listener closes) and returns the row to Sign in, with nothing kept:
// both for the Sign in button and for a sign-in that browsing the account
// asked for, which the host presents from its own goroutine.
func TestCancelSignIn(t *testing.T) {
	for _, tt := range []struct {
		name  string
		start func(h *harness)
	}{
		{"button", func(h *harness) { test.Tap(h.app.servers.rowOf(demoOAuthKey).action) }},
		{"read", func(h *harness) { h.card(hostcore.DemoOAuthServerName).accounts.SetSelected("me") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newOAuthHarness(t)
			r := h.app.servers.rowOf(demoOAuthKey)
			h.do(func() { tt.start(h) })
			page := h.waitForPage(demoOAuthKey)
			u, _ := url.Parse(page)
			redirect := u.Query().Get("redirect_uri")
			h.do(func() { test.Tap(r.cancel) })
			h.settle()
			if r.action.Hidden || r.action.Text != "Sign in" || r.status.Text != "me · not signed in" || !r.cancel.Hidden || !r.link.Hidden {
				t.Errorf("after Cancel: action %q (hidden %v), status %q", r.action.Text, r.action.Hidden, r.status.Text)
			}
			// The read's listings of resources and templates wait on the
			// same connect: the one that presented the page says Canceled,
			// the other that the sign-in was canceled, in either order.
			if st := h.app.status.Text; !strings.Contains(st, "canceled") {
				t.Errorf("status line after Cancel: %q", st)
			}
			if n := len(h.grantsOf(demoOAuthKey)); n != 0 {
				t.Errorf("after Cancel, %d grants are kept", n)
			}
			if resp, err := http.Get(redirect); err == nil {
				resp.Body.Close()
				t.Errorf("the host still listens for the redirect at %s after Cancel", redirect)
			}
		})
	}
}

// Browsing an account that has not signed in asks for a sign-in from the
// host's goroutine (the first listing gets 401): the card shows the same
// wait, and once the person approves, the signed-in account and the
// server's templates.
func TestSignInForARead(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	h.do(func() { h.card(hostcore.DemoOAuthServerName).accounts.SetSelected("me") })
	page := h.waitForPage(demoOAuthKey)
	h.do(func() {
		if r.status.Text != "me · waiting for the sign-in in your browser…" || r.cancel.Hidden {
			t.Errorf("waiting for a read: status %q", r.status.Text)
		}
	})
	approve(t, page, "globex")
	h.settle()
	if r.status.Text != "me · signed in as globex" || r.action.Text != "Sign out" {
		t.Errorf("after the read's sign-in: status %q, action %q", r.status.Text, r.action.Text)
	}
	if got := len(h.app.picker.templates.templates); got != 1 {
		t.Errorf("the picker lists %d templates of demo-oauth after signing in, want 1", got)
	}
}

// The card shows a sign-in page's host and path, and opens only a web page:
// the server names the address.
func TestPageAddress(t *testing.T) {
	tests := []struct {
		raw, text string
		opens     bool
	}{
		{"http://127.0.0.1:47821/authorize?client_id=x&state=y", "127.0.0.1:47821/authorize", true},
		{"https://auth.example/oauth2/authorize?scope=a", "auth.example/oauth2/authorize", true},
		{"file:///etc/passwd", "file:///etc/passwd", false},
		{"javascript:alert(1)", "javascript:alert(1)", false},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			if got := pageText(tt.raw); got != tt.text {
				t.Errorf("pageText = %q, want %q", got, tt.text)
			}
			if got := webURL(tt.raw) != nil; got != tt.opens {
				t.Errorf("webURL opens %v, want %v", got, tt.opens)
			}
		})
	}
}
