package hostcore

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/attache/attache/hostcore/pack"
)

// A read is a snapshot: it stays exactly as true as it was when fetched.
// The Watcher keeps a conversation's attachments current. On servers that
// support it, it subscribes (go-sdk covers resources/subscribe and
// 2026-07-28 subscriptions/listen) and reacts to
// notifications/resources/updated; elsewhere it polls each attachment on a
// stated interval, with jitter and backoff, and says how long ago each was
// checked. It keeps the previous body of an item that changed, for a diff.

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
	// Current is the body in use; Previous the one before the last change.
	Current, Previous []pack.Content
}

type watchItem struct {
	WatchState
	att     Attachment
	conn    *Conn
	pending []pack.Content // a newer body found by polling, not yet in use
}

// Watcher keeps one conversation's attachments current. It is safe for
// concurrent use.
type Watcher struct {
	cv   *Conversations
	opts WatchOptions

	mu     sync.Mutex
	items  map[int64]*watchItem
	conns  map[*Conn]bool
	unhook []func() // unregisters the watcher's hooks on its connections
}

// Watch starts keeping conv's attachments current: it reads each, and
// subscribes where the server supports it, polling the rest. Call Run (or
// Poll, in tests) for the polling, and Close when done.
func (cv *Conversations) Watch(ctx context.Context, conv int64, opts *WatchOptions) (*Watcher, error) {
	w := &Watcher{cv: cv, items: map[int64]*watchItem{}, conns: map[*Conn]bool{}}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.Interval <= 0 {
		w.opts.Interval = DefaultPollInterval
	}
	if w.opts.Now == nil {
		w.opts.Now = cv.host.opts.Now
	}
	if w.opts.Jitter == nil {
		w.opts.Jitter = rand.Float64
	}
	atts, err := cv.store.Attachments(ctx, conv)
	if err != nil {
		return nil, err
	}
	for _, a := range atts {
		w.add(ctx, a)
	}
	return w, nil
}

// add starts watching one attachment.
func (w *Watcher) add(ctx context.Context, a Attachment) {
	it := &watchItem{att: a, WatchState: WatchState{AttachmentID: a.ID, URI: a.URI, Mode: WatchPolling}}
	c, err := w.cv.ConnFor(a)
	if err == nil {
		it.conn = c
		var res *ReadResult
		if res, err = c.Read(ctx, a.URI, ReadUse); err == nil {
			it.Current = res.Contents
		}
	}
	it.Err = err
	it.CheckedAt = w.opts.Now.now()
	it.NextCheck = w.next(it)
	w.mu.Lock()
	w.items[a.ID] = it
	hook := c != nil && !w.conns[c]
	if hook {
		w.conns[c] = true
	}
	w.mu.Unlock()
	if hook {
		// The connection itself subscribes again after a reconnect.
		un := c.OnResourceUpdated(func(uri string) { w.updated(c, uri) })
		w.mu.Lock()
		w.unhook = append(w.unhook, un)
		w.mu.Unlock()
	}
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
// already evicted by the host).
func (w *Watcher) updated(c *Conn, uri string) {
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.conn == c && it.URI == uri }) {
		w.mu.Lock()
		it.Stale = true
		w.mu.Unlock()
		w.changed(it.AttachmentID)
		if w.opts.AutoReread {
			w.Reread(context.Background(), it.AttachmentID)
		}
	}
}

func (w *Watcher) changed(id int64) {
	if w.opts.OnChange != nil {
		w.opts.OnChange(id)
	}
}

// next schedules it's next check: the interval, doubled per consecutive
// failure up to maxPollBackoff, plus up to a tenth of jitter.
func (w *Watcher) next(it *watchItem) time.Time {
	d := w.opts.Interval
	for i := 0; i < it.Failures && d < maxPollBackoff; i++ {
		d *= 2
	}
	d = min(d, maxPollBackoff)
	d += time.Duration(w.opts.Jitter() * float64(d) / 10)
	return it.CheckedAt.Add(d)
}

// Poll checks every polled item that is due, and reconnects to servers of
// subscribed items whose connection was lost (the connection subscribes
// again). A connection the Host closed (logout, removal) stays closed: its
// items report the error. It returns the number of items checked.
func (w *Watcher) Poll(ctx context.Context) int {
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

func (w *Watcher) check(ctx context.Context, it *watchItem) {
	res, err := it.conn.Read(ctx, it.URI, ReadRefresh)
	w.mu.Lock()
	it.CheckedAt, it.Err = w.opts.Now.now(), err
	switch {
	case err != nil:
		it.Failures++
	case !sameContents(res.Contents, it.Current):
		it.Failures = 0
		it.Stale, it.pending = true, res.Contents
	default:
		it.Failures = 0
	}
	it.NextCheck = w.next(it)
	stale := it.Stale
	w.mu.Unlock()
	w.changed(it.AttachmentID)
	if stale && w.opts.AutoReread {
		w.Reread(ctx, it.AttachmentID)
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

// Run polls until ctx is done.
func (w *Watcher) Run(ctx context.Context) {
	for {
		wait := DefaultPollInterval
		if due := w.Due(); !due.IsZero() {
			wait = max(due.Sub(w.opts.Now.now()), 0)
		}
		if sleepCtx(ctx, wait) != nil {
			return
		}
		w.Poll(ctx)
	}
}

// Reread puts the server's newest body in use for one attachment, keeping
// the one it replaces for Diff.
func (w *Watcher) Reread(ctx context.Context, id int64) error {
	w.mu.Lock()
	it, ok := w.items[id]
	var pending []pack.Content
	if ok {
		pending, it.pending = it.pending, nil
	}
	w.mu.Unlock()
	if !ok || it.conn == nil {
		return newError(KindNotFound, nil, "attachment %d is not watched", id)
	}
	if pending == nil {
		res, err := it.conn.Read(ctx, it.URI, ReadRefresh)
		if err != nil {
			return err
		}
		pending = res.Contents
	}
	w.mu.Lock()
	it.Previous, it.Current, it.Stale, it.CheckedAt = it.Current, pending, false, w.opts.Now.now()
	w.mu.Unlock()
	w.changed(id)
	return nil
}

// States returns every watched item's state, by attachment id.
func (w *Watcher) States() []WatchState {
	var out []WatchState
	for _, it := range w.itemsOf(func(*watchItem) bool { return true }) {
		w.mu.Lock()
		out = append(out, it.WatchState)
		w.mu.Unlock()
	}
	return out
}

// State returns one item's state.
func (w *Watcher) State(id int64) (WatchState, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	it, ok := w.items[id]
	if !ok {
		return WatchState{}, false
	}
	return it.WatchState, true
}

// Diff returns a unified diff of an item's previous and current text
// bodies, or "" when it has not changed.
func (w *Watcher) Diff(id int64) string {
	st, ok := w.State(id)
	if !ok || st.Previous == nil {
		return ""
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(contentsText(st.Previous)), B: difflib.SplitLines(contentsText(st.Current)),
		FromFile: st.URI + " (before)", ToFile: st.URI + " (now)", Context: 3,
	})
	if err != nil {
		return ""
	}
	return d
}

// Close gives back every subscription the watcher took (the connection
// tells the server when no one else holds it) and unregisters its hooks.
func (w *Watcher) Close() error {
	var errs []error
	for _, it := range w.itemsOf(func(it *watchItem) bool { return it.Mode == WatchSubscribed }) {
		errs = append(errs, it.conn.Unsubscribe(context.Background(), it.URI))
		w.mu.Lock()
		it.Mode = WatchPolling
		w.mu.Unlock()
	}
	w.mu.Lock()
	unhook := w.unhook
	w.unhook = nil
	w.mu.Unlock()
	for _, un := range unhook {
		un()
	}
	return errors.Join(errs...)
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
