package ui

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
)

// Signing in to HTTP servers that use OAuth. The card of such a server has
// a row per account: Sign in; then, while the host waits for the browser,
// the page's address with Copy and Cancel; then who is signed in where,
// with which scopes and until when (never a token), and Sign out.
//
// A sign-in starts in one of two ways: the Sign in button (Host.Login), or
// a read that a server answers 401, which the host answers by presenting
// the page (PresentSignIn) from its own goroutine. Either way the row shows
// the wait, and Cancel ends it: the button's context is canceled, and the
// presented page returns context.Canceled, so the host's loopback wait
// ends. What the panel knows of each account's sign-in lives in
// serversPanel.signIns, apart from the rows, so that rebuilding the cards
// (after an edit) loses no wait in flight.

// signInKey names an account of a server.
type signInKey struct{ server, account string }

// signIn is what the panel knows of one account's sign-in. It is used on
// the main goroutine only.
type signIn struct {
	login context.CancelFunc // the Sign in in flight, if any
	page  *shownPage         // the page the host waits on, if any
	grant *hostcore.Grant    // the kept sign-in; nil: none
	busy  bool               // signing out
	// gen is bumped by every change, so that a grant load that started
	// before one lands on nothing.
	gen uint64
}

// shownPage is an authorization page the host waits on.
type shownPage struct {
	url    string
	cancel func() // abandons the sign-in
}

// signInRow shows one account's sign-in on its server's card: lines of
// text, full width (a narrow column wraps them), then its buttons.
type signInRow struct {
	key    signInKey
	status *widget.Label
	detail *widget.Label
	link   *link   // the page's host and path; the whole address opens
	action *button // Sign in or Sign out
	copy   *button
	cancel *button
	root   fyne.CanvasObject
}

func newSignInRow(p *serversPanel, key signInKey) *signInRow {
	r := &signInRow{key: key, status: widget.NewLabel(""), detail: widget.NewLabel(""), link: newLink("")}
	r.status.Wrapping = fyne.TextWrapWord
	r.detail.Wrapping = fyne.TextWrapWord
	r.detail.SizeName = theme.SizeNameCaptionText
	r.link.Truncation = fyne.TextTruncateEllipsis
	r.link.SizeName = theme.SizeNameCaptionText
	r.action = newButton("", nil, nil)
	r.copy = newButton("Copy link", theme.ContentCopyIcon(), func() { p.copyPage(key) })
	r.cancel = newButton("Cancel", theme.CancelIcon(), func() { p.cancelSignIn(key) })
	r.root = container.NewVBox(container.New(rowsLayout{}, r.status, r.detail, r.link),
		container.NewHBox(r.action, r.copy, r.cancel))
	return r
}

// show renders st.
func (r *signInRow) show(p *serversPanel, st *signIn) {
	name := r.key.account
	detail, link := "", ""
	r.action.Enable()
	switch {
	case st.page != nil:
		r.status.SetText(name + " · waiting for the sign-in in your browser…")
		link = st.page.url
	case st.login != nil:
		r.status.SetText(name + " · signing in…")
	case st.busy:
		r.status.SetText(name + " · signing out…")
		r.action.Disable()
	case st.grant != nil:
		r.status.SetText(name + " · signed in")
		detail = grantText(st.grant)
		r.setAction("Sign out", theme.LogoutIcon(), func() { p.signOut(r.key) })
	default:
		r.status.SetText(name + " · not signed in")
		r.setAction("Sign in", theme.LoginIcon(), func() { p.signIn(r.key) })
	}
	waiting := st.page != nil || st.login != nil
	r.detail.SetText(detail)
	r.detail.Hidden = detail == ""
	r.link.Text, r.link.URL = pageText(link), webURL(link)
	r.link.Hidden = link == ""
	r.link.Refresh()
	r.copy.Hidden = link == ""
	r.cancel.Hidden = !waiting
	r.action.Hidden = waiting
	r.root.Refresh()
}

func (r *signInRow) setAction(text string, icon fyne.Resource, tapped func()) {
	r.action.SetText(text)
	r.action.SetIcon(icon)
	r.action.OnTapped = tapped
}

// webURL is raw parsed, if it is an http(s) address: the only kind a
// sign-in page is opened at (a server names it, and xdg-open would run
// whatever handles another scheme).
func webURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	return u
}

// pageText is the part of a sign-in page's address worth reading in a
// narrow column: its host and path, which say whose page it is. The query
// (the request) is long and says nothing to a person; Copy link copies all.
func pageText(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host + u.Path
}

// grantText says where a grant was given, for what, and until when: the
// issuer, the scopes and the access token's expiry, never a token.
func grantText(g *hostcore.Grant) string {
	lines := []string{"at " + g.Issuer}
	if len(g.Scopes) > 0 {
		lines = append(lines, "scopes "+strings.Join(g.Scopes, " "))
	}
	if t := g.Token; t != nil {
		renews := t.RefreshToken != ""
		switch {
		case t.Expiry.IsZero():
			lines = append(lines, "token does not expire")
		case renews:
			lines = append(lines, "token until "+clockTime(t.Expiry)+", then renewed")
		default:
			lines = append(lines, "token until "+clockTime(t.Expiry)+", then sign in again")
		}
	}
	return strings.Join(lines, "\n")
}

// clockTime is t as a time of day, with the date when it is not within a
// day of now. A token's expiry is stamped on the real clock (by
// golang.org/x/oauth2), so it is compared with the real clock.
func clockTime(t time.Time) string {
	t = t.Local()
	if d := time.Until(t); d > 20*time.Hour || d < -20*time.Hour {
		return t.Format("2 Jan 15:04")
	}
	return t.Format("15:04")
}

// signInOf returns the state of key, creating it.
func (p *serversPanel) signInOf(key signInKey) *signIn {
	if p.signIns == nil {
		p.signIns = map[signInKey]*signIn{}
	}
	st, ok := p.signIns[key]
	if !ok {
		st = &signIn{}
		p.signIns[key] = st
	}
	return st
}

// cardOf returns the card of the named server, or nil.
func (p *serversPanel) cardOf(server string) *serverCard {
	for _, c := range p.cards {
		if c.sc.Name == server {
			return c
		}
	}
	return nil
}

// rowOf returns the sign-in row of key, or nil.
func (p *serversPanel) rowOf(key signInKey) *signInRow {
	if c := p.cardOf(key.server); c != nil {
		for _, r := range c.signIns {
			if r.key == key {
				return r
			}
		}
	}
	return nil
}

// showSignIn renders key's state on its row, if it has one.
func (p *serversPanel) showSignIn(key signInKey) {
	if r := p.rowOf(key); r != nil {
		r.show(p, p.signInOf(key))
	}
}

// loadGrant looks up key's kept sign-in (the store may be the OS keyring,
// so off the main goroutine) and shows it.
func (p *serversPanel) loadGrant(key signInKey) {
	c := p.cardOf(key.server)
	if c == nil {
		return
	}
	st := p.signInOf(key)
	st.gen++
	gen, sc := st.gen, c.sc
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) (*hostcore.Grant, error) {
		return p.sh.host.GrantOf(ctx, sc, key.account)
	}, func(g *hostcore.Grant, err error) {
		if st.gen != gen {
			return // something changed since: its own outcome shows
		}
		if err != nil {
			p.sh.fail(err)
			return
		}
		st.grant = g
		p.showSignIn(key)
	})
}

// signIn runs Host.Login for key (Sign in). The host logs the account out
// first, then connects, which presents the page; Cancel cancels ctx.
func (p *serversPanel) signIn(key signInKey) {
	c, st := p.cardOf(key.server), p.signInOf(key)
	if c == nil || st.login != nil {
		return
	}
	ctx, cancel := context.WithCancel(p.sh.ctx)
	st.login = cancel
	st.gen++
	p.showSignIn(key)
	sc := c.sc
	run(p.sh.work, ctx, func(ctx context.Context) (*hostcore.Grant, error) {
		return p.sh.host.Login(ctx, sc, key.account)
	}, func(g *hostcore.Grant, err error) {
		cancel()
		st.login = nil
		if err != nil {
			p.loadGrant(key) // what is kept now, whatever the failure left
			p.showSignIn(key)
			p.sh.fail(err)
			return
		}
		st.grant = g
		st.gen++
		p.showSignIn(key)
		p.sh.notify(fmt.Sprintf("Signed in to %s as %s", sc.Name, key.account))
		// Login logged the account out first, closing its connection: if
		// the picker browsed it, it browses the signed-in one now.
		p.followCurrent()
	})
}

// signOut runs Host.Logout for key (Sign out): the grant, the account's
// connections and its private cache entries go. A picker that browsed the
// account keeps its closed connection, as after any logout: nothing
// reconnects behind the person's back, which here would ask for a sign-in
// at once.
func (p *serversPanel) signOut(key signInKey) {
	c, st := p.cardOf(key.server), p.signInOf(key)
	if c == nil || st.busy {
		return
	}
	st.busy = true
	st.gen++
	p.showSignIn(key)
	sc := c.sc
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, p.sh.host.Logout(ctx, sc, key.account)
	}, func(_ struct{}, err error) {
		st.busy = false
		if err != nil {
			p.loadGrant(key) // what is kept now, whatever the failure left
			p.showSignIn(key)
			p.sh.fail(err)
			return
		}
		st.grant = nil
		st.gen++
		p.showSignIn(key)
		p.sh.notify(fmt.Sprintf("Signed out of %s as %s", sc.Name, key.account))
	})
}

// cancelSignIn ends key's wait (Cancel): the button's Login context is
// canceled, and a page presented for a read is withdrawn.
func (p *serversPanel) cancelSignIn(key signInKey) {
	st := p.signInOf(key)
	if st.page != nil {
		st.page.cancel()
	}
	if st.login != nil {
		st.login()
	}
}

// copyPage puts key's sign-in page's whole address on the clipboard.
func (p *serversPanel) copyPage(key signInKey) {
	st := p.signInOf(key)
	if st.page == nil {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(st.page.url)
	p.sh.notify("Copied the address of the sign-in page of " + key.server)
}

// showPage shows that the host waits on page for key.
func (p *serversPanel) showPage(key signInKey, page *shownPage) {
	st := p.signInOf(key)
	st.page = page
	st.gen++
	if p.rowOf(key) == nil { // a server with no card: the status line says it
		p.sh.notify("Waiting for the sign-in to " + key.server + " in your browser: " + page.url)
		return
	}
	p.showSignIn(key)
}

// pageGone is told that the host no longer waits on page: the sign-in
// ended. A Sign in shows its outcome when Login returns; a sign-in that a
// read started shows what is kept now.
func (p *serversPanel) pageGone(key signInKey, page *shownPage) {
	st := p.signInOf(key)
	if st.page != page {
		return
	}
	st.page = nil
	st.gen++
	if st.login == nil {
		p.loadGrant(key)
	}
	p.showSignIn(key)
}

// PresentSignIn shows, on the card of page's server, that the host waits
// for the person to sign in on page (hostcore.OAuthOptions.Present): the
// page's address, with Copy and Cancel. It holds the page up until ctx
// ends, which the host does when the sign-in ends, or until the person
// taps Cancel, when it returns context.Canceled and the host stops
// waiting. Opening a browser is the caller's (cmd/attache's). The host
// calls it from its own goroutine, never from the main goroutine, which it
// would block.
func (a *App) PresentSignIn(ctx context.Context, page hostcore.SignInPage) error {
	canceled := make(chan struct{})
	shown := &shownPage{url: page.URL, cancel: sync.OnceFunc(func() { close(canceled) })}
	key := signInKey{page.Server, page.Account}
	deliver(func() { a.servers.showPage(key, shown) })
	err := context.Canceled
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-canceled:
	}
	deliver(func() { a.servers.pageGone(key, shown) })
	return err
}
