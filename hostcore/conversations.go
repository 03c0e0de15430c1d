package hostcore

import (
	"context"
	"slices"
)

// The domain methods screens and commands list and edit conversations
// and attachments with. They go to the state store, and an attachment's
// change also reaches its live conversation (Live), whose observers are
// told: a screen that attaches, pins or removes sees the result the way it
// sees a turn's or a poll's, and reads nothing again for it.

// List returns every conversation not removed.
func (cv *Conversations) List(ctx context.Context) ([]Conversation, error) {
	return cv.store.Conversations(ctx)
}

// Conversation returns one conversation.
func (cv *Conversations) Conversation(ctx context.Context, id int64) (Conversation, error) {
	return cv.store.Conversation(ctx, id)
}

// Create starts a conversation titled title.
func (cv *Conversations) Create(ctx context.Context, title string) (Conversation, error) {
	return cv.store.CreateConversation(ctx, title)
}

// Rename retitles a conversation.
func (cv *Conversations) Rename(ctx context.Context, id int64, title string) error {
	return cv.store.RenameConversation(ctx, id, title)
}

// Remove hides a conversation and its attachments; Restore brings them
// back, within the session.
func (cv *Conversations) Remove(ctx context.Context, id int64) error {
	return cv.store.RemoveConversation(ctx, id)
}

// Restore brings back a conversation Remove hid.
func (cv *Conversations) Restore(ctx context.Context, id int64) error {
	return cv.store.RestoreConversation(ctx, id)
}

// Attachments returns a conversation's attachments, in attach order, as
// stored (no body is read).
func (cv *Conversations) Attachments(ctx context.Context, conv int64) ([]Attachment, error) {
	return cv.store.Attachments(ctx, conv)
}

// UpdateAttachment saves a's pin, priority override and annotations.
func (cv *Conversations) UpdateAttachment(ctx context.Context, a Attachment) error {
	if err := cv.store.UpdateAttachment(ctx, a); err != nil {
		return err
	}
	if l := cv.held(a.ConversationID); l != nil {
		l.edited(a)
	}
	return nil
}

// RemoveAttachment takes attachment id out of its conversation;
// RestoreAttachment puts it back, within the session.
func (cv *Conversations) RemoveAttachment(ctx context.Context, id int64) error {
	if err := cv.store.RemoveAttachment(ctx, id); err != nil {
		return err
	}
	for _, l := range cv.holding() {
		l.removedAttachment(id)
	}
	return nil
}

// RestoreAttachment puts back an attachment RemoveAttachment took out,
// read again (through the cache) in a live conversation.
func (cv *Conversations) RestoreAttachment(ctx context.Context, id int64) error {
	if err := cv.store.RestoreAttachment(ctx, id); err != nil {
		return err
	}
	for _, l := range cv.holding() {
		if a, ok := l.restored(id); ok {
			c, err := cv.ConnFor(a)
			l.added(a, cv.readBody(ctx, c, err, a, ReadUse))
		}
	}
	return nil
}

// holding returns the live conversations.
func (cv *Conversations) holding() []*Live {
	cv.liveMu.Lock()
	defer cv.liveMu.Unlock()
	out := make([]*Live, 0, len(cv.lives))
	for _, l := range cv.lives {
		out = append(out, l)
	}
	return out
}

// added keeps a new (or restored) attachment, with r as its body in use,
// in attach order.
func (l *Live) added(a Attachment, r readItem) {
	l.mu.Lock()
	if _, ok := l.entries[a.ID]; !ok {
		l.entries[a.ID] = &liveEntry{LiveItem: LiveItem{Attachment: a, Item: itemOf(a)}}
		at, _ := slices.BinarySearchFunc(l.order, a.Position, func(id int64, pos int) int {
			return l.entries[id].Attachment.Position - pos
		})
		l.order = slices.Insert(l.order, at, a.ID)
	}
	delete(l.removed, a.ID)
	l.mu.Unlock()
	l.keep(a.ID, r, rereadUse)
	l.publish(LiveChange{AttachmentID: a.ID, Kind: LiveAttachments})
}

// edited keeps a's new pin, priority override and annotations: the body
// in use stays.
func (l *Live) edited(a Attachment) {
	l.mu.Lock()
	e, ok := l.entries[a.ID]
	if ok {
		e.Attachment = a
		it := itemOf(a)
		it.Contents, it.ReadErr = e.Item.Contents, e.Item.ReadErr
		e.Item = it
	}
	l.mu.Unlock()
	if ok {
		l.publish(LiveChange{AttachmentID: a.ID, Kind: LiveAttachments})
	}
}

// removedAttachment forgets attachment id, keeping it for a restore.
func (l *Live) removedAttachment(id int64) {
	l.mu.Lock()
	e, ok := l.entries[id]
	if ok {
		l.removed[id] = e.Attachment
		delete(l.entries, id)
		l.order = slices.DeleteFunc(l.order, func(x int64) bool { return x == id })
	}
	l.mu.Unlock()
	if ok {
		l.publish(LiveChange{AttachmentID: id, Kind: LiveAttachments})
	}
}

// restored returns the attachment id removed from this conversation, if
// it was.
func (l *Live) restored(id int64) (Attachment, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.removed[id]
	return a, ok
}
