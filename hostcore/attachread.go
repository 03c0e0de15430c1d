package hostcore

import (
	"context"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// AttachmentRead is an attachment as read for a turn or a ranking: its
// item for pack.Rank (with its body, or the error that kept it), how the
// cache answered, and when the body was fetched from the server.
type AttachmentRead struct {
	Attachment Attachment
	Item       *pack.Item
	Cache      CacheStatus
	FetchedAt  time.Time
}

// Conversation returns conversation id, or an error of kind not found.
func (cv *Conversations) Conversation(ctx context.Context, id int64) (Conversation, error) {
	return cv.store.Conversation(ctx, id)
}

// ReadAttachments reads every attachment of conv through the cache
// (ReadUse), all at once (the host bounds the reads that go to servers,
// per connection and in all: see readlimit.go, so that a slow server holds
// up its own reads only), in the order of the attachments. An attachment that cannot be read is returned with the
// error on its item. Conversations.Items and a chat turn share it.
func (cv *Conversations) ReadAttachments(ctx context.Context, conv int64) ([]AttachmentRead, error) {
	atts, err := cv.store.Attachments(ctx, conv)
	if err != nil {
		return nil, err
	}
	return cv.readAll(ctx, atts), nil
}

// readAll reads atts through the cache, keeping each read's cache status
// and when its body was fetched.
func (cv *Conversations) readAll(ctx context.Context, atts []Attachment) []AttachmentRead {
	out := make([]AttachmentRead, len(atts))
	now := cv.host.opts.Now.now()
	var wg sync.WaitGroup
	for i, a := range atts {
		out[i] = AttachmentRead{Attachment: a, Item: itemOf(a), FetchedAt: now}
		wg.Go(func() {
			c, err := cv.ConnFor(a)
			if err != nil {
				out[i].Item.ReadErr = err
				return
			}
			res, err := c.Read(ctx, a.URI, ReadUse)
			if err != nil {
				out[i].Item.ReadErr = err
				return
			}
			out[i].Item.Contents, out[i].Cache = res.Contents, res.Cache.Status
			out[i].FetchedAt = now.Add(-res.Cache.Age)
		})
	}
	wg.Wait()
	return out
}

// Attachments returns conv's attachments, in the order of attaching.
func (cv *Conversations) Attachments(ctx context.Context, conv int64) ([]Attachment, error) {
	return cv.store.Attachments(ctx, conv)
}
