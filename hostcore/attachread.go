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

// ReadAttachments reads every attachment of conv through the cache
// (ReadUse), all at once (the host bounds the reads that go to servers,
// per connection and in all: see hostcore/readgate, so that a slow server holds
// up its own reads only), in the order of the attachments, each through
// the live conversation. An attachment that cannot be read is returned
// with the error on its item. Conversations.Items and a chat turn share it.
func (cv *Conversations) ReadAttachments(ctx context.Context, conv int64) ([]AttachmentRead, error) {
	atts, err := cv.store.Attachments(ctx, conv)
	if err != nil {
		return nil, err
	}
	return cv.readAll(ctx, atts), nil
}

// readAll reads atts through the cache, all at once, keeping each read's
// cache status and when its body was fetched. Each read goes through the
// live conversation (reread), so that what a turn sends is what its
// screens show.
func (cv *Conversations) readAll(ctx context.Context, atts []Attachment) []AttachmentRead {
	out := make([]AttachmentRead, len(atts))
	var wg sync.WaitGroup
	for i, a := range atts {
		wg.Go(func() {
			r := cv.reread(ctx, nil, a, rereadUse)
			out[i] = AttachmentRead{Attachment: a, Item: r.item, Cache: r.cache, FetchedAt: r.fetchedAt}
		})
	}
	wg.Wait()
	return out
}
