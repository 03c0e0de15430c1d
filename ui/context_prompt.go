package ui

import (
	"context"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/pack"
)

// What the preview shows is the system prompt the next turn would send:
// chat.NextContext over the packing on screen, the bodies the live
// conversation keeps (which a turn reads through too) and the turns
// already stored, so the preamble and the update notes are there, and
// the text is the same byte for byte as the model receives.

// prompted is a ranking's prompt: the reads it was packed from (items[i]
// of the ranking is reads[i].Item) and the turns it was compared with.
type prompted struct {
	reads   []hostcore.AttachmentRead
	earlier []chat.Turn
}

// liveReads are the attachments kept that have been read, as a turn gets
// them: body, cache status and when the server sent it.
func liveReads(kept []hostcore.LiveItem) []hostcore.AttachmentRead {
	reads := make([]hostcore.AttachmentRead, 0, len(kept))
	for _, k := range kept {
		if k.Read {
			reads = append(reads, hostcore.AttachmentRead{Attachment: k.Attachment, Item: k.Item, Cache: k.Cache,
				FetchedAt: k.FetchedAt})
		}
	}
	return reads
}

// readItems are the reads' items and attachments, for the ranker.
func readItems(reads []hostcore.AttachmentRead) ([]*pack.Item, []hostcore.Attachment) {
	items := make([]*pack.Item, len(reads))
	atts := make([]hostcore.Attachment, len(reads))
	for i, r := range reads {
		items[i], atts[i] = r.Item, r.Attachment
	}
	return items, atts
}

// earlierTurns returns a function that loads the turns conv has stored,
// for the update notes; without a model loop there are none. It is
// called on a ranking's goroutine.
func (p *attachmentsPanel) earlierTurns() func(context.Context) ([]chat.Turn, error) {
	ch, conv := p.sh.opts.Chat, p.sh.conv.ID
	return func(ctx context.Context) ([]chat.Turn, error) {
		if ch == nil || conv == 0 {
			return nil, nil
		}
		return ch.Turns(ctx, conv)
	}
}

// systemPrompt is what the preview shows of packing pk: the system prompt
// exactly as Send would build it now.
func systemPrompt(pk pack.Packing, pr prompted) string {
	return chat.NextContext(pk, pr.reads, pr.earlier).System
}
