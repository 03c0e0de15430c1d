package hostcore

import (
	"context"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// rereadHow says who reads an attachment again, and so what the answer
// does to the body in use.
type rereadHow int

const (
	// rereadUse is a turn assembling its context, a ranking or an attach:
	// through the cache (ReadUse), and the answer is the body in use.
	rereadUse rereadHow = iota
	// rereadCheck is the Watcher's poll: from the server (ReadRefresh); a
	// body that differs from the one in use is kept aside and the
	// attachment turns stale, until a Reread (or a read to use) takes it.
	rereadCheck
	// rereadRefresh is the person's Re-read (or the Watcher's automatic
	// one): the body a poll found, else a fresh one from the server, goes
	// in use, the one it replaces kept for a diff.
	rereadRefresh
)

// reread reads attachment a again; it is the one place every read of an
// attachment goes through (see live.go). When a's conversation is live,
// the answer updates its kept item and the observers are told. It reads
// through c when given (a watcher's borrowed connection, which a logout
// closes for good), else through the connection the attachment names.
func (cv *Conversations) reread(ctx context.Context, c *Conn, a Attachment, how rereadHow) readItem {
	l := cv.held(a.ConversationID)
	var marks uint64
	if l != nil {
		if how == rereadRefresh {
			if r, ok := l.takePending(a); ok {
				l.keep(a.ID, r, how)
				return r
			}
		}
		marks = l.marksOf(a.ID) // before the read: a mark after this is news the read may not carry
	}
	mode := ReadUse
	if how != rereadUse {
		mode = ReadRefresh
	}
	var err error
	if c == nil {
		c, err = cv.ConnFor(a)
	}
	r := cv.readBody(ctx, c, err, a, mode)
	r.marks = marks
	if l != nil {
		l.keep(a.ID, r, how)
	}
	return r
}

// readBody reads a through c (or records why c could not be had).
func (cv *Conversations) readBody(ctx context.Context, c *Conn, connErr error, a Attachment, mode ReadMode) readItem {
	now := cv.host.opts.Now.now()
	r := readItem{item: itemOf(a), fetchedAt: now}
	if connErr != nil {
		r.item.ReadErr = connErr
		return r
	}
	res, err := c.Read(ctx, a.URI, mode)
	if err != nil {
		r.item.ReadErr = err
		return r
	}
	r.item.Contents, r.cache = res.Contents, res.Cache.Status
	if cc, ok := cv.host.opts.Cache.(CountingCache); ok && res.Cache.Status != CacheBypass && res.Cache.Status != CacheNone {
		if partition, err := c.Partition(ctx); err == nil {
			r.item.Counts = cc.CountsFor(c.readKey(a.URI), partition)
		}
	}
	r.fetchedAt = now.Add(-res.Cache.Age)
	return r
}

// takePending returns the body a poll found for a, as a read, and forgets
// it. A body the server said it changed again since is no longer the
// newest: it is dropped, for a fresh read.
func (l *Live) takePending(a Attachment) (readItem, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.entries[a.ID]
	if !ok || e.pending == nil {
		return readItem{}, false
	}
	if e.pendingMarks != e.marks {
		e.pending = nil
		return readItem{}, false
	}
	r := readItem{item: itemOf(a), cache: CacheRefresh, fetchedAt: e.pendingAt, marks: e.marks}
	r.item.Contents = e.pending
	e.pending = nil
	return r, true
}

// keep records a read of attachment id and tells the observers.
func (l *Live) keep(id int64, r readItem, how rereadHow) {
	tokens := 0
	if how != rereadCheck && r.item.ReadErr == nil {
		tokens = pack.Tokens(r.item, nil) // before the lock: counting a long body takes a while
	}
	now := l.cv.host.opts.Now.now()
	l.mu.Lock()
	e, ok := l.entries[id]
	var kind LiveChangeKind
	if ok {
		kind = e.apply(r, how, tokens, now)
	}
	l.mu.Unlock()
	if kind != 0 {
		l.publish(LiveChange{AttachmentID: id, Kind: kind})
	}
}

// apply records a read in e and says what changed.
func (e *liveEntry) apply(r readItem, how rereadHow, tokens int, now time.Time) LiveChangeKind {
	if r.cache != CacheHit {
		e.CheckedAt = now
	}
	if how == rereadCheck && e.Read {
		if r.item.ReadErr == nil && !sameContents(r.item.Contents, e.Item.Contents) {
			e.Stale, e.pending, e.pendingAt, e.pendingMarks = true, r.item.Contents, r.fetchedAt, r.marks
		}
		return LiveState
	}
	if how == rereadRefresh && r.item.ReadErr != nil {
		return LiveState // a failed Re-read leaves the body in use alone
	}
	old := e.Item
	changed := !e.Read || !sameError(old.ReadErr, r.item.ReadErr) || !sameContents(old.Contents, r.item.Contents)
	if how == rereadRefresh || (changed && e.Read && old.ReadErr == nil && r.item.ReadErr == nil) {
		e.Previous = old.Contents
	}
	it := itemOf(e.Attachment)
	it.Contents, it.ReadErr = r.item.Contents, r.item.ReadErr
	e.Item, e.Read, e.Tokens, e.Cache, e.FetchedAt = it, true, tokens, r.cache, r.fetchedAt
	if r.item.ReadErr == nil && r.newest(e.marks) {
		e.Stale, e.pending = false, nil // the newest body is the one in use
	}
	if changed || how == rereadRefresh {
		return LiveBody | LiveState
	}
	return LiveState
}

// newest reports whether r's body is known to be the server's newest, marks
// being the entry's count of the server's updates now. A read the server
// said it changed during (a mark since the read began) is not: it may carry
// the body from before the change. Nor is an expired entry served because
// the server could not be reached (CacheStale). A cache hit begun after
// the last mark is: the host evicts a resource's entries when the server
// says it changed, before the live conversation is told, and a read in
// flight then does not store its answer (Host.Invalidate), so an entry
// found after a mark was fetched after it.
func (r readItem) newest(marks uint64) bool {
	return r.marks == marks && r.cache != CacheStale
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// readItem is one read of an attachment: its item for pack.Rank (with the
// body, or the error that kept it), how the cache answered, and when the
// body was fetched from the server.
type readItem struct {
	item      *pack.Item
	cache     CacheStatus
	fetchedAt time.Time
	// marks is the attachment's count of the server's updates when the read
	// began (liveEntry.marks).
	marks uint64
}
