package ui

import (
	"sync"

	"github.com/attache/attache/hostcore"
)

// The attachments panel shows the live conversation (hostcore.Live): the
// host keeps each attachment's body in use, tokens and staleness, whoever
// read it (a turn sent to the model, the watcher's poll, the person's
// Re-read), and tells the panel. The rows, the budget meter, the context
// preview and the stale badges then follow what the model is sent, with
// no restart and no read of the panel's own.

// liveNews is what the live conversation told the panel and the panel has
// not shown yet. Changes that land together are shown once. It is safe
// for concurrent use.
type liveNews struct {
	mu        sync.Mutex
	kind      hostcore.LiveChangeKind
	scheduled bool // a showNews is on its way to the main goroutine
}

// add records a change and reports whether a showNews must be scheduled.
func (n *liveNews) add(k hostcore.LiveChangeKind) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.kind |= k
	schedule := !n.scheduled
	n.scheduled = true
	return schedule
}

// take returns the changes recorded, and forgets them.
func (n *liveNews) take() hostcore.LiveChangeKind {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := n.kind
	n.kind, n.scheduled = 0, false
	return k
}

// keep puts changes back, to show after the read in flight.
func (n *liveNews) keep(k hostcore.LiveChangeKind) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.kind |= k
}

// waiting reports whether changes wait to be shown.
func (n *liveNews) waiting() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.kind != 0
}

// hold makes the panel hear the current conversation's live state, after
// letting go of the previous one's.
func (p *attachmentsPanel) hold() {
	if p.letGo != nil {
		p.letGo()
	}
	p.live, p.letGo = nil, nil
	p.news.take()
	if p.sh.conv.ID == 0 {
		return
	}
	live, release := p.sh.cv.Live(p.sh.conv.ID)
	unhear := live.OnChange(p.heard)
	p.live, p.letGo = live, func() { unhear(); release() }
}

// heard is told of a change, on the goroutine that made it; the panel
// shows it on the main goroutine, counted as work until it does.
func (p *attachmentsPanel) heard(ch hostcore.LiveChange) {
	if !p.news.add(ch.Kind) {
		return
	}
	p.sh.work.add()
	deliverThen(p.showNews, p.sh.work.done)
}

// showNews shows what the live conversation told the panel: a new ranking
// when a body or the attachments changed, else the rows' freshness. While
// the panel's own read runs, it waits for it (the read shows it all).
func (p *attachmentsPanel) showNews() {
	k := p.news.take()
	if p.live == nil || k == 0 {
		return
	}
	if p.reading != 0 && p.rank.current(p.reading) {
		p.news.keep(k)
		return
	}
	if k&(hostcore.LiveBody|hostcore.LiveAttachments) != 0 {
		p.rankLive()
		return
	}
	p.refreshWatch()
}
