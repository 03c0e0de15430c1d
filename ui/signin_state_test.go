package ui

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/threengram"
)

// browseOAuth makes the picker browse demo-oauth as me, as a person does
// by choosing the account on the card, which asks for a sign-in.
func (h *harness) browseOAuth() {
	h.do(func() { h.card(hostcore.DemoOAuthServerName).accounts.SetSelected("me") })
}

// Issue 21's journey: Sign in, approve, Sign out, press Read. The read
// says the person signed out and names the next step, Sign in to read
// this; no page opens, not for that read, not for the background work
// that uses the account (a watcher's, a poll's read), not for choosing the
// account again; the row stays "not signed in" until Sign in, which asks
// again.
func TestNoSignInAfterSignOut(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	h.browseOAuth()
	approve(t, h.waitForPage(demoOAuthKey), "acme")
	h.settle()
	if r.action.Text != "Sign out" {
		t.Fatalf("after signing in: %q", r.status.Text)
	}
	ids := h.memoryIDs("acme", "m", 1)
	h.do(func() { test.Tap(r.action) }) // Sign out
	h.settle()

	h.do(func() { h.app.Read(threengram.MemoryURI(ids[0])) })
	h.settle()
	if st := h.app.status.Text; !strings.Contains(st, "you signed out") || !strings.Contains(st, "Sign in to read this") || strings.Contains(st, "Canceled") {
		t.Errorf("the read after Sign out says %q; want that you signed out, and Sign in to read this", st)
	}
	c, err := h.host.Conn(hostcore.DemoOAuthServerName, "me")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(context.Background(), threengram.MemoryURI(ids[0]), hostcore.ReadRefresh); !errors.Is(err, signin.ErrNeeded) {
		t.Errorf("a background read after Sign out: %v; want sign-in needed", err)
	}
	h.browseOAuth()
	h.settle()
	if n := h.opened.Load(); n != 1 {
		t.Errorf("%d pages opened in the browser after Sign out, want none (1 in all)", n)
	}
	if st := h.host.SignIns().StateOf(h.card(hostcore.DemoOAuthServerName).sc, "me"); st.Waiting || r.status.Text != "me · not signed in" || r.action.Text != "Sign in" {
		t.Errorf("after Sign out and reads: host %+v, row %q / %q; want no wait, not signed in", st, r.status.Text, r.action.Text)
	}

	h.do(func() { test.Tap(r.action) }) // Sign in: the person asks
	approve(t, h.waitForPage(demoOAuthKey), "acme")
	h.settle()
	if r.status.Text != "me · signed in as acme" || h.opened.Load() != 2 {
		t.Errorf("Sign in after Sign out: %q, %d pages opened; want signed in, 2", r.status.Text, h.opened.Load())
	}
}

// At most one wait per account, and Cancel always ends it: the two
// listings that browsing the account starts (resources, templates) share
// one page; Cancel ends it for both and no second wait begins; Sign in,
// then Cancel again, ends that one too.
func TestOneWaitCancelEndsIt(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	sc := h.card(hostcore.DemoOAuthServerName).sc
	h.browseOAuth()
	first := h.waitForPage(demoOAuthKey)
	h.do(func() { test.Tap(r.cancel) })
	h.settle()
	if st := h.host.SignIns().StateOf(sc, "me"); st.Waiting || h.opened.Load() != 1 || r.action.Text != "Sign in" || r.cancel.Visible() {
		t.Fatalf("after the first Cancel: host %+v, %d pages opened, row %q; want no wait, 1 page, Sign in", st, h.opened.Load(), r.status.Text)
	}
	for try := range 2 {
		h.do(func() { test.Tap(r.action) })
		page := h.waitForPage(demoOAuthKey)
		if page == first {
			t.Errorf("Sign in %d shows the canceled page again", try)
		}
		h.do(func() { test.Tap(r.cancel) })
		h.settle()
		if st := h.host.SignIns().StateOf(sc, "me"); st.Waiting || r.status.Text != "me · not signed in" || r.cancel.Visible() {
			t.Errorf("Cancel %d of a Sign in: host %+v, row %q; want no wait", try+2, st, r.status.Text)
		}
	}
	if n := h.opened.Load(); n != 3 {
		t.Errorf("%d pages opened for a browse and two Sign ins, want 3", n)
	}
	if n := len(h.grantsOf(demoOAuthKey)); n != 0 {
		t.Errorf("%d grants kept after three cancels", n)
	}
}

// With no browser to open the page (no xdg-open), the row says so, and
// shows the page's address with Copy, and Cancel; approving from a browser
// the person opens themselves still signs in.
func TestSignInWithoutABrowser(t *testing.T) {
	h := newOAuthHarnessWith(t, func(h *harness) {
		h.openURL = func(*url.URL) error { return errors.New("xdg-open, which opens a browser, is not installed") }
	})
	r := h.app.servers.rowOf(demoOAuthKey)
	h.do(func() { test.Tap(r.action) })
	page := h.waitForPage(demoOAuthKey)
	h.do(func() {
		if !strings.Contains(r.status.Text, "no browser could be opened") || !strings.Contains(r.detail.Text, "xdg-open") ||
			r.link.Hidden || r.link.URL.String() != page || r.copy.Hidden || r.cancel.Hidden {
			t.Errorf("no browser: status %q, detail %q, link hidden %v, copy hidden %v", r.status.Text, r.detail.Text, r.link.Hidden, r.copy.Hidden)
		}
	})
	assertMarkupAt(t, "signin_no_browser.xml", r.root, r.root.Size().Width)
	h.do(func() { test.Tap(r.copy) })
	if got := h.fa.Clipboard().Content(); got != page {
		t.Errorf("Copy link put %q on the clipboard, want the page", got)
	}
	approve(t, page, "initech")
	h.settle()
	if r.status.Text != "me · signed in as initech" {
		t.Errorf("after approving from the copied address: %q", r.status.Text)
	}
}

// A server that moved to another authorization server (SEP-2352) is shown
// as a sign-in to ask for, where the server now signs in, not as a
// sign-out.
func TestMovedRow(t *testing.T) {
	h := newOAuthHarness(t)
	r := h.app.servers.rowOf(demoOAuthKey)
	h.do(func() {
		r.show(h.app.servers, rowView{host: signin.State{MovedTo: "https://login.example.com/tenant/"},
			own: &signIn{grant: &signin.Grant{Issuer: "https://old.example.com", Subject: "acme"}}})
	})
	if r.status.Text != "me · the server now signs in at login.example.com/tenant" || r.action.Text != "Sign in" || r.action.Hidden {
		t.Errorf("moved: status %q, action %q", r.status.Text, r.action.Text)
	}
}

// A URL that answers a JSON-RPC POST as no MCP endpoint does (here a 400
// with an HTML page) offers no Sign in: the card says to check the URL.
func TestNoSignInForANonEndpoint(t *testing.T) {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, "<html><body>Bad Request</body></html>")
	}))
	t.Cleanup(web.Close)
	sc := config.ServerConfig{Name: "web", URL: web.URL + "/mcp"}
	h := newOAuthHarnessWith(t, func(h *harness) { h.extra = append(h.extra, sc) })
	r := h.app.servers.rowOf(signInKey{"web", config.DefaultAccount})
	if r == nil {
		t.Fatal("an HTTP server gets no sign-in row before it is tried")
	}
	h.do(func() {
		if !r.root.Visible() {
			t.Error("the sign-in row is hidden before the server was tried")
		}
	})
	conn, err := h.host.ConnFor(sc, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Connect(context.Background()); !errors.Is(err, hostcore.ErrNotAnEndpoint) {
		t.Fatalf("connecting = %v; want no MCP endpoint", err)
	}
	h.do(h.app.servers.refreshStates)
	h.do(func() {
		if r.root.Visible() {
			t.Errorf("a URL that is no MCP endpoint still offers %q", r.action.Text)
		}
		if c := h.app.servers.cardOf("web"); c == nil || !strings.Contains(c.state.Text, "no MCP endpoint") {
			t.Errorf("the card's state does not say why")
		}
	})
}
