package hostcore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// Poll follows a change of the live conversation's attachments (Sync),
// checks every polled item that is due, and reconnects to servers of
// subscribed items whose connection was lost (the connection subscribes
// again). A connection the Host closed (logout, removal) stays closed: its
// items report the error. It returns the number of items checked.
func (w *Watcher) Poll(ctx context.Context) int {
	w.mu.Lock()
	dirty, closed := w.dirty, w.closed
	w.mu.Unlock()
	if closed {
		return 0
	}
	if dirty {
		w.Sync(ctx)
	}
	w.reconnect(ctx)
	now := w.opts.Now.now()
	due := w.itemsOf(func(it *watchItem) bool {
		return it.Mode == WatchPolling && it.conn != nil && !now.Before(it.NextCheck)
	})
	for _, it := range due {
		w.check(ctx, it)
	}
	return len(due)
}

// reconnect reopens lost connections that carry subscriptions: nothing
// else would use them, and a server cannot notify a session that is gone.
func (w *Watcher) reconnect(ctx context.Context) {
	seen := map[*Conn]bool{}
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.Mode == WatchSubscribed }) {
		if seen[it.conn] {
			continue
		}
		seen[it.conn] = true
		if st := it.conn.Info().State; st == StateDisconnected || st == StateFailed {
			it.conn.session(ctx) // never revives a closed connection
		}
	}
}

// check asks the server for it's body, through the live conversation:
// a body that differs from the one in use turns it stale.
func (w *Watcher) check(ctx context.Context, it *watchItem) {
	r := w.cv.reread(ctx, it.conn, it.att, rereadCheck)
	w.mu.Lock()
	it.CheckedAt, it.Err = w.opts.Now.now(), r.item.ReadErr
	if it.Err != nil {
		it.Failures++
	} else {
		it.Failures = 0
	}
	it.NextCheck = w.next(it)
	w.mu.Unlock()
	w.changed(it.AttachmentID)
	if li, ok := w.live.Item(it.AttachmentID); ok && li.Stale && w.opts.AutoReread {
		w.live.rereadVia(ctx, it.conn, it.AttachmentID)
	}
}

// Due returns when the next polled item is due (zero when none is polled).
func (w *Watcher) Due() time.Time {
	var due time.Time
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.Mode == WatchPolling && it.conn != nil }) {
		if due.IsZero() || it.NextCheck.Before(due) {
			due = it.NextCheck
		}
	}
	return due
}

// Run polls until ctx is done, sleeping on the injected clock
// (WatchOptions.Sleep) until the next item is due, or until the live
// conversation's attachments change.
func (w *Watcher) Run(ctx context.Context) {
	for {
		wait := DefaultPollInterval
		if due := w.Due(); !due.IsZero() {
			wait = max(due.Sub(w.opts.Now.now()), 0)
		}
		sleep, wake := context.WithCancel(ctx)
		w.mu.Lock()
		w.interrupt = wake
		if w.dirty {
			wake()
		}
		w.mu.Unlock()
		w.opts.Sleep(sleep, wait)
		wake()
		if ctx.Err() != nil {
			return
		}
		w.Poll(ctx)
	}
}

// Reread puts the server's newest body in use for one attachment, keeping
// the one it replaces for Diff (see Live.Reread).
func (w *Watcher) Reread(ctx context.Context, id int64) error {
	w.mu.Lock()
	it, ok := w.items[id]
	w.mu.Unlock()
	if !ok || it.conn == nil {
		return newError(fault.KindNotFound, nil, "attachment %d is not watched", id)
	}
	return w.live.rereadVia(ctx, it.conn, id)
}

// States returns every watched item's state, by attachment id.
func (w *Watcher) States() []WatchState {
	var out []WatchState
	for _, it := range w.itemsOf(func(*watchItem) bool { return true }) {
		if st, ok := w.State(it.AttachmentID); ok {
			out = append(out, st)
		}
	}
	return out
}

// State returns one item's state: how it is watched, with its staleness
// and bodies from the live conversation.
func (w *Watcher) State(id int64) (WatchState, bool) {
	w.mu.Lock()
	it, ok := w.items[id]
	var st WatchState
	if ok {
		st = it.WatchState
	}
	w.mu.Unlock()
	if !ok {
		return WatchState{}, false
	}
	if li, ok := w.live.Item(id); ok {
		st.Stale, st.Previous = li.Stale, li.Previous
		if li.Item != nil {
			st.Current = li.Item.Contents
		}
		if li.CheckedAt.After(st.CheckedAt) {
			st.CheckedAt = li.CheckedAt
		}
	}
	return st, true
}

// Diff returns a unified diff of an item's previous and current text
// bodies, or "" when it has not changed.
func (w *Watcher) Diff(id int64) string { return w.live.Diff(id) }

// Close gives back every subscription the watcher took (the connection
// tells the server when no one else holds it), unregisters its hooks and
// lets go of the live conversation.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	w.unobserve()
	var errs []error
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.Mode == WatchSubscribed }) {
		errs = append(errs, it.conn.Unsubscribe(context.Background(), it.URI))
		w.mu.Lock()
		it.Mode = WatchPolling
		w.mu.Unlock()
	}
	w.mu.Lock()
	unhook := w.unhook
	w.unhook = map[*Conn]func(){}
	w.mu.Unlock()
	for _, un := range unhook {
		un()
	}
	w.release()
	return errors.Join(errs...)
}

// diffText is a unified diff of two bodies' text.
func diffText(uri string, before, now []pack.Content) string {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(contentsText(before)), B: difflib.SplitLines(contentsText(now)),
		FromFile: uri + " (before)", ToFile: uri + " (now)", Context: 3,
	})
	if err != nil {
		return ""
	}
	return d
}

func sameContents(a, b []pack.Content) bool {
	return slices.EqualFunc(a, b, func(x, y pack.Content) bool {
		return x.URI == y.URI && x.MIMEType == y.MIMEType && x.Text == y.Text && x.IsBlob == y.IsBlob && string(x.Blob) == string(y.Blob)
	})
}

func contentsText(cs []pack.Content) string {
	var b strings.Builder
	for _, c := range cs {
		if c.IsBlob {
			b.WriteString("[binary " + c.MIMEType + "]\n")
			continue
		}
		b.WriteString(c.Text)
		if !strings.HasSuffix(c.Text, "\n") && c.Text != "" {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
