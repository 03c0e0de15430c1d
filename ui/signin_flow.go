package ui

import (
	"context"
	"errors"
	"fmt"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore/signin"
)

// What the sign-in rows do: Sign in, Sign out, Cancel, Copy link, and the
// page the host presents (PresentSignIn). The rows follow the host: every
// change of a sign-in's state there (OnSignInChange) shows again, and
// loads the kept grant again, on every row.

// signInOf returns the panel's state of key, creating it.
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

// viewOf is what key's row shows: the host's state and the panel's.
func (p *serversPanel) viewOf(key signInKey) rowView {
	v := rowView{own: p.signInOf(key)}
	if c := p.cardOf(key.server); c != nil {
		v.host = p.sh.host.SignIns().StateOf(c.sc, key.account)
	}
	return v
}

// showSignIn renders key's state on its row, if it has one.
func (p *serversPanel) showSignIn(key signInKey) {
	if r := p.rowOf(key); r != nil {
		r.show(p, p.viewOf(key))
	}
}

// followSignIns shows the host's sign-in states as they change, and
// returns the function that stops it.
func (p *serversPanel) followSignIns() (stop func()) {
	// The host tells from whatever goroutine changed the state, which may
	// be the main one (a Cancel): the rows show it from a goroutine of
	// their own, each time as it is then.
	return p.sh.host.SignIns().OnChange(func() {
		p.sh.work.add()
		go deliverTracked(p.sh.work, func() {
			for _, c := range p.cards {
				for _, r := range c.signIns {
					r.show(p, p.viewOf(r.key))
					p.loadGrant(r.key) // a wait that ended may have left a grant
				}
			}
		})
	})
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
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) (*signin.Grant, error) {
		return p.sh.host.SignIns().GrantOf(ctx, sc, key.account)
	}, func(g *signin.Grant, err error) {
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

// signIn runs Host.Login for key (Sign in): the person asks. The host logs
// the account out first, then connects, which presents the page.
func (p *serversPanel) signIn(key signInKey) {
	c, st := p.cardOf(key.server), p.signInOf(key)
	if c == nil || st.login != nil {
		return
	}
	ctx, cancel := context.WithCancel(p.sh.ctx)
	canceled := false
	st.login = func() { canceled = true; cancel() }
	st.gen++
	p.showSignIn(key)
	sc := c.sc
	run(p.sh.work, ctx, func(ctx context.Context) (*signin.Grant, error) {
		return p.sh.host.Login(ctx, sc, key.account)
	}, func(g *signin.Grant, err error) {
		cancel()
		st.login = nil
		switch {
		case err != nil && (canceled || errors.Is(err, signin.ErrNeeded) && p.sh.host.SignIns().StateOf(sc, key.account).Ended != ""):
			p.loadGrant(key)
			p.showSignIn(key)
			p.sh.notify(fmt.Sprintf("Sign-in to %s as %s canceled", sc.Name, key.account))
		case err != nil:
			p.loadGrant(key) // what is kept now, whatever the failure left
			p.showSignIn(key)
			p.sh.fail(err)
		default:
			st.grant = g
			st.gen++
			p.showSignIn(key)
			p.sh.notify(fmt.Sprintf("Signed in to %s as %s", sc.Name, key.account))
			// Login logged the account out first, closing its connection:
			// if the picker browsed it, it browses the signed-in one now.
			p.followCurrent()
		}
	})
}

// signOut runs Host.Logout for key (Sign out): the grant, the account's
// connections and its private cache entries go, and the host starts no
// sign-in of the account until the person taps Sign in. A picker that
// browsed the account keeps its closed connection, whose reads say "you
// signed out" and name the next step, Sign in.
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

// cancelSignIn ends key's wait (Cancel), whoever started it: the host's,
// and the Sign in in flight.
func (p *serversPanel) cancelSignIn(key signInKey) {
	if c := p.cardOf(key.server); c != nil {
		p.sh.host.SignIns().CancelOf(c.sc, key.account)
	}
	if st := p.signInOf(key); st.login != nil {
		st.login()
	}
}

// copyPage puts key's sign-in page's whole address on the clipboard.
func (p *serversPanel) copyPage(key signInKey) {
	page := p.viewOf(key).host.Page
	if page == "" {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(page)
	p.sh.notify("Copied the address of the sign-in page of " + key.server)
}

// PresentSignIn is signin.Options.Present for the window: it opens
// page in the person's browser (Options.OpenURL), notes on the account's
// row whether that worked, and holds the page up until ctx ends, which
// the host does when the sign-in ends (a grant, a failure, a timeout, or
// Cancel, which ends it through Host.CancelSignIn). The row shows the
// wait from the host's own state. The host calls it from its own
// goroutine, never from the main goroutine, which it would block.
func (a *App) PresentSignIn(ctx context.Context, page signin.Page) error {
	why := ""
	if u := webURL(page.URL); u == nil {
		why = "the sign-in page is not a web address, so no browser was asked to open it"
	} else if open := a.sh.opts.OpenURL; open == nil {
		why = "this window has no way to open a browser"
	} else if err := open(u); err != nil {
		why = err.Error()
	}
	key := signInKey{page.Server, page.Account}
	deliver(func() {
		st := a.servers.signInOf(key)
		st.noBrowser, st.shownPage = why, page.URL
		if a.servers.rowOf(key) == nil { // a server with no card: the status line says it
			a.notify("Waiting for the sign-in to " + page.Server + " in your browser: " + page.URL)
			return
		}
		a.servers.showSignIn(key)
	})
	<-ctx.Done()
	return ctx.Err()
}
