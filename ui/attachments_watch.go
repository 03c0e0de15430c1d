package ui

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
)

// watchState is the attachments panel's hostcore.Watcher: it keeps the
// conversation's attachments current (subscriptions where the server has
// them, polling elsewhere) and says which are stale. Used on the main
// goroutine only; the Watcher itself is safe anywhere.
type watchState struct {
	w *hostcore.Watcher
	j job
}

// state is what the watcher knows of one attachment.
func (s *watchState) state(id int64) (hostcore.WatchState, bool) {
	if s.w == nil {
		return hostcore.WatchState{}, false
	}
	return s.w.State(id)
}

// stop ends the watcher's polling and unsubscribes, on a goroutine.
func (s *watchState) stop() {
	s.j.stop()
	if s.w != nil {
		go s.w.Close()
		s.w = nil
	}
}

// rewatch starts a watcher over the conversation, replacing the previous
// one (another conversation's): it follows the attachments from then on.
func (p *attachmentsPanel) rewatch() {
	p.watch.stop()
	conv := p.sh.conv.ID
	if conv == 0 {
		return
	}
	ctx, gen := p.watch.j.start(p.sh.ctx)
	opts := &hostcore.WatchOptions{OnChange: func(int64) { deliver(p.refreshWatch) }}
	if p.sh.opts.Now != nil {
		opts.Now = p.sh.opts.Now
	}
	cv := p.sh.cv
	run(p.sh.work, ctx, func(ctx context.Context) (*hostcore.Watcher, error) {
		return cv.Watch(ctx, conv, opts)
	}, func(w *hostcore.Watcher, err error) {
		if !p.watch.j.current(gen) {
			if w != nil {
				go w.Close()
			}
			return
		}
		if err != nil {
			p.sh.fail(err)
			return
		}
		p.watch.w = w
		go w.Run(ctx) // until the next rewatch or the window closes
		p.refreshWatch()
	})
}

// syncWatch makes the watcher follow the conversation's attachments (it
// watches one just attached, and lets go of one removed, and leaves the
// others alone), then shows their freshness.
func (p *attachmentsPanel) syncWatch() {
	w := p.watch.w
	if w == nil {
		return
	}
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) (struct{}, error) {
		w.Sync(ctx)
		return struct{}{}, nil
	}, func(struct{}, error) { p.refreshWatch() })
}

// reread puts the server's newest body in use for a stale attachment: the
// live conversation has it then, and the panel ranks again with it.
func (p *attachmentsPanel) reread(a hostcore.Attachment) {
	live := p.live
	if live == nil {
		return
	}
	p.sh.act(func(ctx context.Context) error { return live.Reread(ctx, a.ID) }, func() {
		p.sh.notify("Re-read " + a.URI)
	})
}

// showDiff shows how an attachment's text changed at its last re-read.
func (p *attachmentsPanel) showDiff(a hostcore.Attachment) {
	if p.live == nil {
		return
	}
	diff := p.live.Diff(a.ID)
	if diff == "" {
		diff = "The text did not change at the last re-read."
	}
	d := newDialog("Changes to "+a.URI, "Close", codeView(diff), p.sh.win) // each line whole
	d.Resize(p.sh.win.Canvas().Size().Subtract(fyne.NewSize(160, 160)))
	closeOnEscape(p.sh.win, d, d.Hide)
	d.Show()
}
