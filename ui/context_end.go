package ui

import (
	"slices"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// No screen shows a body the current authorization context may not see.
// When the host ends a context (Sign out, a logout, a server removed or
// its credentials changed: hostcore.ContextEnd), the inspector, the
// context preview and the console drop every body of it; when the person
// browses another account, the inspector drops a private body of the
// last one. Each screen drops only what is of that context.

// watchContextEnds hands the host's ends of contexts to the screens, on
// the main goroutine, until the app closes.
func (a *App) watchContextEnds() {
	a.stopEnds = a.sh.host.OnContextEnded(func(e hostcore.ContextEnd) {
		deliver(func() {
			if !a.closed {
				a.contextEnded(e)
			}
		})
	})
}

// contextEnded drops every body of e's context from the screens.
func (a *App) contextEnded(e hostcore.ContextEnd) {
	a.inspector.contextEnded(e)
	a.attachments.contextEnded(e)
	a.console.refresh() // the host let the context's record go: its detail goes with it
}

// contextEnded empties the inspector if it shows (or reads) a body of e's
// context.
func (in *inspector) contextEnded(e hostcore.ContextEnd) {
	c := in.req.conn
	if c == nil || !e.Covers(c.Server.Name, c.Account.Name) {
		return
	}
	in.drop("dropped · "+string(e.Reason), "The body of "+in.req.uri+" is no longer shown: "+e.String()+".")
}

// browsing is told that the person browses c now: a private body read as
// another account (or of another server) is not c's to see, and goes. A
// public one (cacheScope public) is anyone's, and stays.
func (in *inspector) browsing(c *hostcore.Conn) {
	r := in.req.conn
	if r == nil || c == nil || in.shownScope == hostcore.ScopePublic ||
		r.Server.Name == c.Server.Name && r.Account.Name == c.Account.Name {
		return
	}
	in.drop("dropped · another account", "The body of "+in.req.uri+" was read from "+r.Server.Name+" as "+
		r.Account.Name+", and "+c.Server.Name+" as "+c.Account.Name+" is browsed now. Read it again to see it as "+c.Account.Name+".")
}

// drop stops the read in flight and shows why there is no body.
func (in *inspector) drop(badge, why string) {
	in.busy.stop()
	in.progress.Hide()
	in.modes.Hide() // Refresh would read through the context that ended
	in.facts.Show()
	in.req = readRequest{}
	in.uri.SetText("")
	in.showPlaceholder(badge, why)
}

// contextEnded takes the bodies of e's context out of the ranking and the
// preview at once, reading nothing: their rows say why, and the next
// ranking (a change, Re-read) reads them again in a context that may.
func (p *attachmentsPanel) contextEnded(e hostcore.ContextEnd) {
	if p.reading != 0 && p.rank.current(p.reading) {
		p.rerank() // the read in flight may have read them before the end
		return
	}
	i := slices.IndexFunc(p.items, func(it *pack.Item) bool { return it.ReadErr == nil && e.Covers(it.Server, it.Account) })
	if i < 0 {
		return
	}
	items := slices.Clone(p.items)
	for i, it := range items {
		if it.ReadErr == nil && e.Covers(it.Server, it.Account) {
			c := *it
			c.Contents, c.ReadErr = nil, e.Err()
			items[i] = &c
		}
	}
	p.rank.stop() // a re-pack in flight holds the bodies
	p.items = items
	p.prompt.reads = slices.Clone(p.prompt.reads)
	for i := range p.prompt.reads {
		if i < len(items) {
			p.prompt.reads[i].Item = items[i]
		}
	}
	budget := p.applied
	pk := p.ranker.Repack(items, budget)
	p.show(pk, p.atts, systemPrompt(pk, p.prompt))
}
