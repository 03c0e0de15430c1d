package hostcore

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// A read is a snapshot: it stays exactly as true as it was when fetched.
// The Watcher keeps a live conversation's attachments current. On servers
// that support it, it subscribes (go-sdk covers resources/subscribe and
// 2026-07-28 subscriptions/listen) and reacts to
// notifications/resources/updated; elsewhere it polls each attachment on a
// stated interval, with jitter and backoff, and says how long ago each was
// checked. What it finds goes to the live conversation (live.go), which
// keeps the bodies, the staleness and the previous body of an item that
// changed, for a diff: the Watcher keeps only how each item is watched.
//
// It follows the conversation's attachments: one attached is watched (and
// subscribed to) and one removed let go, without reading or subscribing
// to the others again (Sync; Run and Poll do it themselves when the live
// conversation says its attachments changed). It sleeps on an injected
// clock (WatchOptions.Sleep, or the host's), never on the wall clock of
// its own.

// DefaultPollInterval is how often attachments on servers without
// subscriptions are re-checked.
const DefaultPollInterval = 60 * time.Second

// maxPollBackoff caps the interval after repeated failures.
const maxPollBackoff = 10 * time.Minute

// WatchOptions configures a Watcher. The zero value is usable.
type WatchOptions struct {
	// Interval between checks of a polled item; 0 means DefaultPollInterval.
	Interval time.Duration
	// AutoReread re-reads an item as soon as the server says it changed;
	// otherwise the item is marked stale until Reread.
	AutoReread bool
	// Now is the clock; nil means the host's.
	Now Clock
	// Sleep waits for d or until ctx is done, between Run's passes; nil
	// means the host's (HostOptions.Sleep). A test gives a fake clock's, or
	// runs Run under testing/synctest.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1) that spreads checks over up to a
	// tenth of the interval; nil means math/rand.
	Jitter func() float64
	// OnChange is called, from any goroutine, after an item's state changes.
	OnChange func(attachmentID int64)
}

// WatchMode says how an item is kept current.
type WatchMode string

// Watch modes.
const (
	WatchSubscribed WatchMode = "subscribed" // the server notifies changes
	WatchPolling    WatchMode = "polling"    // the host re-checks on an interval
)

// WatchState is what the host knows of one attachment's freshness.
type WatchState struct {
	AttachmentID int64
	URI          string
	Mode         WatchMode
	// Unacknowledged holds why a subscription was refused; the item is
	// polled instead.
	Unacknowledged string
	// Stale is set when the server has a newer body than the one in use.
	Stale     bool
	CheckedAt time.Time
	NextCheck time.Time // for polled items
	Failures  int
	Err       error
	// Current is the body in use; Previous the one before the last change
	// (both the live conversation's).
	Current, Previous []pack.Content
}

// watchItem is how one attachment is watched.
type watchItem struct {
	WatchState
	att  Attachment
	conn *Conn
}

// Watcher keeps one live conversation's attachments current. It is safe
// for concurrent use.
type Watcher struct {
	cv        *Conversations
	live      *Live
	release   func() // lets go of live
	unobserve func()
	opts      WatchOptions

	syncMu sync.Mutex // one Sync at a time

	mu        sync.Mutex
	items     map[int64]*watchItem
	unhook    map[*Conn]func() // unregisters the watcher's hook on each connection
	dirty     bool             // the live conversation's attachments changed since the last Sync
	interrupt func()           // ends Run's sleep
	closed    bool
}

// Watch starts keeping conv's attachments current: it holds the live
// conversation (loading it, which reads each attachment, unless someone
// already did), and subscribes where the server supports it, polling the
// rest. Call Run (or Poll, in tests) for the polling, and Close when done.
func (cv *Conversations) Watch(ctx context.Context, conv int64, opts *WatchOptions) (*Watcher, error) {
	live, release := cv.Live(conv)
	w := &Watcher{cv: cv, live: live, release: release, items: map[int64]*watchItem{}, unhook: map[*Conn]func(){}}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.Interval <= 0 {
		w.opts.Interval = DefaultPollInterval
	}
	if w.opts.Now == nil {
		w.opts.Now = cv.host.opts.Now
	}
	if w.opts.Sleep == nil {
		w.opts.Sleep = cv.host.opts.Sleep
	}
	if w.opts.Jitter == nil {
		w.opts.Jitter = rand.Float64
	}
	if !live.Loaded() {
		if err := live.Load(ctx); err != nil {
			release()
			return nil, err
		}
	}
	w.unobserve = live.OnChange(w.liveChanged)
	w.Sync(ctx)
	return w, nil
}

// Live returns the live conversation the watcher keeps current.
func (w *Watcher) Live() *Live { return w.live }

// liveChanged hears the live conversation: a change of its attachments is
// followed at the next Sync (Run's, at once); a change of an item is
// passed on.
func (w *Watcher) liveChanged(ch LiveChange) {
	w.mu.Lock()
	if ch.Kind&LiveAttachments != 0 {
		w.dirty = true
		if w.interrupt != nil {
			w.interrupt()
		}
	}
	_, watched := w.items[ch.AttachmentID]
	w.mu.Unlock()
	if watched && ch.Kind&(LiveState|LiveBody) != 0 {
		w.changed(ch.AttachmentID)
	}
}

// Sync follows the live conversation's attachments: it starts watching
// those attached since (subscribing where offered) and lets go of those
// removed. It reads nothing, and leaves the others alone.
func (w *Watcher) Sync(ctx context.Context) {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.dirty = false
	var gone []*watchItem
	kept := map[int64]bool{}
	for _, id := range w.live.attachmentIDs() {
		kept[id] = true
	}
	for id, it := range w.items {
		if !kept[id] {
			gone = append(gone, it)
			delete(w.items, id)
		}
	}
	w.mu.Unlock()
	for _, it := range gone {
		if it.Mode == WatchSubscribed {
			it.conn.Unsubscribe(context.WithoutCancel(ctx), it.URI)
		}
	}
	for _, li := range w.live.Items() {
		w.mu.Lock()
		_, ok := w.items[li.Attachment.ID]
		w.mu.Unlock()
		if !ok {
			w.add(ctx, li)
		}
	}
}

// add starts watching one attachment.
func (w *Watcher) add(ctx context.Context, li LiveItem) {
	a := li.Attachment
	it := &watchItem{att: a, WatchState: WatchState{AttachmentID: a.ID, URI: a.URI, Mode: WatchPolling}}
	c, err := w.cv.ConnFor(a)
	if err == nil {
		it.conn = c
		err = li.Item.ReadErr
	}
	it.Err = err
	it.CheckedAt = w.opts.Now.now()
	it.NextCheck = w.next(it)
	w.mu.Lock()
	w.items[a.ID] = it
	hook := c != nil && w.unhook[c] == nil
	if hook {
		// The connection itself subscribes again after a reconnect.
		w.unhook[c] = c.OnResourceUpdated(func(uri string) { w.updated(c, uri) })
	}
	w.mu.Unlock()
	if c != nil && err == nil {
		w.subscribe(ctx, it)
	}
}

// subscribe subscribes to it where the server supports it.
func (w *Watcher) subscribe(ctx context.Context, it *watchItem) {
	if ok, _ := it.conn.Offers(ctx, FeatureSubscribe); !ok {
		return
	}
	err := it.conn.Subscribe(ctx, it.URI)
	w.mu.Lock()
	if err != nil {
		it.Mode, it.Unacknowledged = WatchPolling, err.Error()
	} else {
		it.Mode, it.Unacknowledged = WatchSubscribed, ""
	}
	w.mu.Unlock()
	w.changed(it.AttachmentID)
}

func (w *Watcher) itemsOf(match func(*watchItem) bool) []*watchItem {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*watchItem
	for _, it := range w.items {
		if match(it) {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b *watchItem) int { return int(a.AttachmentID - b.AttachmentID) })
	return out
}

// updated handles notifications/resources/updated (the cache entry is
// already evicted by the host): the live conversation marks the items
// stale.
func (w *Watcher) updated(c *Conn, uri string) {
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.conn == c && it.URI == uri }) {
		w.live.markStale(it.AttachmentID)
		if w.opts.AutoReread {
			w.live.rereadVia(context.Background(), it.conn, it.AttachmentID)
		}
	}
}

func (w *Watcher) changed(id int64) {
	if w.opts.OnChange != nil {
		w.opts.OnChange(id)
	}
}

// next schedules it's next check: the interval, doubled per consecutive
// failure up to maxPollBackoff (an interval longer than that is never
// shortened), plus up to a tenth of jitter.
func (w *Watcher) next(it *watchItem) time.Time {
	d, ceiling := w.opts.Interval, max(maxPollBackoff, w.opts.Interval)
	for i := 0; i < it.Failures && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	d += time.Duration(w.opts.Jitter() * float64(d) / 10)
	return it.CheckedAt.Add(d)
}
