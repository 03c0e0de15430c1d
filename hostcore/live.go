package hostcore

import (
	"context"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/hooks"
	"github.com/attache/attache/hostcore/pack"
)

// The host owns the live conversation: what is attached to it and, for
// each attachment, the body in use (what a turn sends and a screen ranks),
// what it costs in tokens, when it was fetched and checked, and whether
// the server has a newer one. Every read of an attachment, whoever starts
// it, goes through one place (Conversations.reread): a turn assembling its
// context, a ranking, the Watcher's poll, the person's Re-read; a server's
// notification marks it stale there too. That place updates the kept item
// and tells the live conversation's observers (Live.OnChange), so the
// attachments list, the budget meter, the context preview and the stale
// badge follow what the model is sent, with no restart and no re-reading
// of their own.
//
// A conversation is live while someone holds it (Conversations.Live): a
// read of an attachment of a conversation no one holds keeps nothing.

// LiveItem is one attachment of a live conversation as the host keeps it.
type LiveItem struct {
	Attachment Attachment
	// Item is what the ranker is given: the attachment with the body in
	// use, or the error that kept it from being read. It is never changed
	// once handed out (a change makes a new one).
	Item *pack.Item
	// Read is set once the attachment has been read.
	Read bool
	// Tokens is what the body in use costs as sent (pack.Tokens); 0 when
	// it could not be read.
	Tokens int
	// Cache says how the cache answered the read that put the body in use.
	Cache CacheStatus
	// FetchedAt is when the server sent the body in use; CheckedAt when the
	// host last read the attachment or looked whether it changed.
	FetchedAt, CheckedAt time.Time
	// Stale is set when the server has a newer body than the one in use
	// (it said so, or a poll found one). It stays until a body known to be
	// the newest is in use: one read after the server's last update (a read
	// the update overtook leaves it set), and not an expired entry served
	// while the server was unreachable.
	Stale bool
	// Previous is the body in use before the last change, for a diff.
	Previous []pack.Content
}

// LiveChangeKind says what changed in a live conversation.
type LiveChangeKind int

// Kinds of change. A ranking depends on LiveBody and LiveAttachments; a
// LiveState change (stale, checked) does not.
const (
	// LiveBody: an attachment's body in use, or its read error, changed.
	LiveBody LiveChangeKind = 1 << iota
	// LiveState: an attachment turned stale or fresh, or was checked.
	LiveState
	// LiveAttachments: attachments were added, removed, restored or edited
	// (pin, priority), or the conversation was loaded.
	LiveAttachments
)

// LiveChange is what an observer of a live conversation is told.
type LiveChange struct {
	ConversationID int64
	// AttachmentID is the attachment that changed; 0 for a change of the
	// set (a load).
	AttachmentID int64
	Kind         LiveChangeKind
}

// Live is one conversation as the host keeps it now. It is safe for
// concurrent use; observers are called on the goroutine that made the
// change, after it is made, and must not block (a Fyne front end hands the
// news to fyne.Do).
type Live struct {
	cv   *Conversations
	conv int64
	refs int // guarded by cv.liveMu

	mu      sync.Mutex
	loaded  bool
	order   []int64 // attachment ids, in attach order
	entries map[int64]*liveEntry
	removed map[int64]Attachment // removed in this session, for a restore

	observers hooks.List[func(LiveChange)]
	loads     singleflight.Group // Loads at the same time share one
}

// liveEntry is a LiveItem and the newer body a poll found, not yet in use.
// marks counts the server's updates of it (markStale); a read records the
// count when it begins, so that one an update overtook does not clear
// Stale. pendingMarks is the count when the poll that found pending began.
type liveEntry struct {
	LiveItem
	pending      []pack.Content
	pendingAt    time.Time
	marks        uint64
	pendingMarks uint64
}

// Live returns conversation conv as the host keeps it, shared by every
// holder, and the function that lets go of it; once the last holder lets
// go, the host forgets its bodies. Call Load before reading Items.
func (cv *Conversations) Live(conv int64) (*Live, func()) {
	cv.liveMu.Lock()
	defer cv.liveMu.Unlock()
	if cv.lives == nil {
		cv.lives = map[int64]*Live{}
	}
	l := cv.lives[conv]
	if l == nil {
		l = &Live{cv: cv, conv: conv, entries: map[int64]*liveEntry{}, removed: map[int64]Attachment{}}
		cv.lives[conv] = l
	}
	l.refs++
	var once sync.Once
	return l, func() { once.Do(func() { cv.release(l) }) }
}

func (cv *Conversations) release(l *Live) {
	cv.liveMu.Lock()
	defer cv.liveMu.Unlock()
	if l.refs--; l.refs == 0 && cv.lives[l.conv] == l {
		delete(cv.lives, l.conv)
	}
}

// held returns the live conversation conv, if someone holds it.
func (cv *Conversations) held(conv int64) *Live {
	cv.liveMu.Lock()
	defer cv.liveMu.Unlock()
	return cv.lives[conv]
}

// ConversationID is the conversation this is.
func (l *Live) ConversationID() int64 { return l.conv }

// OnChange registers f to be told of each change, and returns the function
// that unregisters it.
func (l *Live) OnChange(f func(LiveChange)) (unregister func()) { return l.observers.Add(f) }

func (l *Live) publish(ch LiveChange) {
	ch.ConversationID = l.conv
	for _, f := range l.observers.All() {
		f(ch)
	}
}

// Load lists the conversation's attachments and reads each (through the
// cache), and tells the observers. A later Load lists and reads again;
// Loads at the same time (a screen's and its watcher's) share one.
func (l *Live) Load(ctx context.Context) error {
	_, err, _ := l.loads.Do("load", func() (any, error) { return nil, l.load(ctx) })
	return err
}

func (l *Live) load(ctx context.Context) error {
	atts, err := l.cv.store.Attachments(ctx, l.conv)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.order = l.order[:0]
	keep := map[int64]*liveEntry{}
	for _, a := range atts {
		l.order = append(l.order, a.ID)
		e := l.entries[a.ID]
		if e == nil {
			e = &liveEntry{LiveItem: LiveItem{Item: itemOf(a)}}
		}
		e.Attachment = a
		keep[a.ID] = e
	}
	l.entries = keep
	l.mu.Unlock()
	l.cv.readAll(ctx, atts) // each read lands in its entry
	l.mu.Lock()
	l.loaded = true
	l.mu.Unlock()
	l.publish(LiveChange{Kind: LiveAttachments})
	return nil
}

// Loaded reports whether Load has completed once.
func (l *Live) Loaded() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loaded
}

// Items returns every attachment as kept now, in attach order.
func (l *Live) Items() []LiveItem {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LiveItem, 0, len(l.order))
	for _, id := range l.order {
		out = append(out, l.entries[id].LiveItem)
	}
	return out
}

// Item returns one attachment as kept now.
func (l *Live) Item(id int64) (LiveItem, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.entries[id]
	if !ok {
		return LiveItem{}, false
	}
	return e.LiveItem, true
}

// Reread puts the server's newest body in use for one attachment (the one
// a poll found, else a fresh read), keeping the one it replaces for Diff.
func (l *Live) Reread(ctx context.Context, id int64) error { return l.rereadVia(ctx, nil, id) }

// rereadVia is Reread through c (nil: the attachment's connection).
func (l *Live) rereadVia(ctx context.Context, c *Conn, id int64) error {
	it, ok := l.Item(id)
	if !ok {
		return newError(fault.KindNotFound, nil, "attachment %d is not in conversation %d", id, l.conv)
	}
	return l.cv.reread(ctx, c, it.Attachment, rereadRefresh).item.ReadErr
}

// Diff returns a unified diff of an attachment's previous and current text
// bodies, or "" when it has not changed.
func (l *Live) Diff(id int64) string {
	it, ok := l.Item(id)
	if !ok || it.Previous == nil {
		return ""
	}
	return diffText(it.Attachment.URI, it.Previous, it.Item.Contents)
}

// markStale records that the server has a newer body of an attachment
// than the one in use (it said so). Every mark counts, stale or not: a read
// in flight must not clear the staleness of an update it began before.
func (l *Live) markStale(id int64) {
	l.mu.Lock()
	e, ok := l.entries[id]
	changed := ok && !e.Stale
	if ok {
		e.marks++
		e.Stale = true
	}
	l.mu.Unlock()
	if changed {
		l.publish(LiveChange{AttachmentID: id, Kind: LiveState})
	}
}

// marksOf returns how many updates the server sent of an attachment
// (liveEntry.marks).
func (l *Live) marksOf(id int64) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.entries[id]; ok {
		return e.marks
	}
	return 0
}

// attachmentIDs returns the ids kept, in attach order.
func (l *Live) attachmentIDs() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.order)
}
