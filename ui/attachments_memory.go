package ui

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// lifecycleEvery is how long the attachments' lifecycle, once asked, is
// shown before a ranking asks again; a change of attachments asks at once.
const lifecycleEvery = 30 * time.Second

// lifecycles is what get_memories last said of the conversation's memory
// attachments, by attachment id, and which ones it was asked about.
type lifecycles struct {
	byAtt map[int64]hostcore.Lifecycle
	asked string // the attachment ids asked about, in order
	at    time.Time
	job   job
}

// memoryTitle names a memory attachment by its id and what tells it apart
// (type, topic, project, date); other attachments by rowTitle.
func memoryTitle(x ranked) string {
	if x.memory.Type == "" {
		return rowTitle(x.att)
	}
	if id := hostcore.MemoryID(x.att.URI); id != "" {
		return id + " · " + x.memory.Line()
	}
	return x.memory.Line()
}

// askLifecycles asks each server of the conversation's memory attachments
// for their lifecycle (a live tool call, never the cache), unless it was
// asked about the same attachments less than lifecycleEvery ago.
func (p *attachmentsPanel) askLifecycles() {
	var mems []hostcore.Attachment
	var ids []string
	for _, x := range p.rows {
		if x.memory.Type != "" && hostcore.MemoryID(x.att.URI) != "" {
			mems = append(mems, x.att)
			ids = append(ids, x.att.Server.Name+"/"+x.att.Account+"/"+x.att.URI)
		}
	}
	slices.Sort(ids)
	key := strings.Join(ids, "\n")
	l := &p.life
	if len(mems) == 0 || (key == l.asked && p.sh.now().Sub(l.at) < lifecycleEvery) {
		return
	}
	l.asked, l.at = key, p.sh.now()
	cv := p.sh.cv
	ctx, gen := l.job.start(p.sh.ctx)
	run(p.sh.work, ctx, func(ctx context.Context) (map[int64]hostcore.Lifecycle, error) {
		return memoryLifecycles(ctx, cv, mems), nil
	}, func(got map[int64]hostcore.Lifecycle, _ error) {
		if !l.job.current(gen) {
			return
		}
		l.job.finish(gen)
		l.byAtt = got
		for i := range p.rows {
			p.rows[i].life = got[p.rows[i].att.ID]
		}
		p.list.Refresh()
	})
}

// memoryLifecycles asks get_memories about mems, one call per connection
// (in batches). A server that cannot say (no such tool, not connected)
// leaves its attachments out: their rows show no state rather than a
// wrong one.
func memoryLifecycles(ctx context.Context, cv *hostcore.Conversations, mems []hostcore.Attachment) map[int64]hostcore.Lifecycle {
	byConn := map[*hostcore.Conn][]hostcore.Attachment{}
	for _, a := range mems {
		if c, err := cv.ConnFor(a); err == nil {
			byConn[c] = append(byConn[c], a)
		}
	}
	out := map[int64]hostcore.Lifecycle{}
	for c, atts := range byConn {
		ids := make([]string, len(atts))
		for i, a := range atts {
			ids[i] = hostcore.MemoryID(a.URI)
		}
		states, err := c.MemoryLifecycle(ctx, ids)
		if err != nil {
			continue
		}
		for _, a := range atts {
			if s, ok := states[hostcore.MemoryID(a.URI)]; ok {
				out[a.ID] = s
			}
		}
	}
	return out
}

// memoryMetas reads what tells each memory item apart from the body the
// ranking read, by item ID (other resources have none).
func memoryMetas(items []*pack.Item) map[string]hostcore.MemoryMeta {
	out := make(map[string]hostcore.MemoryMeta, len(items))
	for _, it := range items {
		if m, ok := hostcore.ItemMemoryMeta(it); ok {
			out[it.ID] = m
		}
	}
	return out
}
