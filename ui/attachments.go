package ui

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/pack"
)

// attachmentsPanel is the right column: the conversation's attachments in
// rank order, each with its verdict and the reason for it, a budget meter,
// pin, priority override, remove (with Undo), stale badges with Re-read and
// a diff, and a preview of exactly what would be sent to the model.
type attachmentsPanel struct {
	sh    *shell
	bar   *conversationBar
	rank  job
	watch watchState

	rows    []ranked
	packing pack.Packing
	life    lifecycles
	// memories are the kept items' memory metadata, by item ID, read once
	// per reading (never on a budget keystroke).
	memories map[string]hostcore.MemoryMeta
	// ranker, items and atts are the conversation's attachments as last
	// read: a budget, pin or priority change ranks them again without
	// reading (items[i] is atts[i]). Only the UI goroutine changes items
	// and atts; a ranking on another goroutine gets its own slice.
	ranker *pack.Ranker
	items  []*pack.Item
	atts   []hostcore.Attachment
	// prompt is what the preview renders with them: the reads (Item of
	// reads[i] is items[i]) and the turns stored when they were read.
	prompt prompted
	// reading is the ranking job that reads, while it runs, else 0.
	reading uint64
	// live is the conversation as the host keeps it: every read of its
	// attachments (a turn's, a poll's, a Re-read) lands there, and the
	// panel shows what it hears (news), reading nothing of its own.
	live  *hostcore.Live
	letGo func() // stops hearing live and lets go of it
	news  liveNews
	// loading is set while load puts the conversation's budget in the
	// field: the ranking that follows packs under it.
	loading bool
	order   heldOrder

	budget     *keyEntry
	budgetNote *widget.Label // why what is typed is not a budget
	// applied is the budget the context is packed under: the last one
	// typed that was one.
	applied int
	meter   *budgetMeter
	summary *widget.Label
	list    *keyList
	empty   *widget.Label
	undo    *fyne.Container
	undone  *widget.Label
	removed hostcore.Attachment
	preview *contextPreview
	root    fyne.CanvasObject
}

func newAttachmentsPanel(sh *shell, bar *conversationBar) *attachmentsPanel {
	p := &attachmentsPanel{sh: sh, bar: bar, meter: newBudgetMeter(), ranker: pack.NewRanker(nil)}
	p.preview = newContextPreview(sh)
	p.preview.chat.budget = func() int { return p.applied }
	p.preview.chat.turnEnded = p.rankLive // the new turn is one the next notes compare with
	return p
}

func (p *attachmentsPanel) buildUI() fyne.CanvasObject {
	p.budget = newKeyEntry()
	p.budgetNote = widget.NewLabel("")
	p.budgetNote.Importance = widget.DangerImportance
	p.budgetNote.Wrapping = fyne.TextWrapWord
	p.budgetNote.Hide()
	p.applied = p.sh.prefs.IntWithFallback(prefBudget, pack.DefaultBudget)
	p.budget.SetText(strconv.Itoa(p.applied))
	p.budget.Validator = func(s string) error {
		_, err := pack.ParseBudget(s)
		return err
	}
	p.budget.OnChanged = p.budgetTyped
	p.summary = caption("")
	p.list = newKeyList(func() int { return len(p.rows) },
		func() fyne.CanvasObject { return newAttachmentRow() }, p.updateRow)
	p.list.OnSelected = p.inspect
	p.empty = widget.NewLabel("Nothing attached yet. Find a memory in the picker (Memories: by id or search) " +
		"and press Attach (Ctrl+Enter); it shows here with whether it goes into the model's context, and why.")
	p.empty.Wrapping = fyne.TextWrapWord
	p.empty.TextStyle.Italic = true
	p.undone = widget.NewLabel("")
	p.undone.Truncation = fyne.TextTruncateEllipsis
	p.undo = container.NewBorder(nil, nil, nil, newButton("Undo", theme.ContentUndoIcon(), p.restore), p.undone)
	p.undo.Hide()
	budgetRow := container.NewBorder(nil, nil, heading("Attachments"),
		container.NewHBox(widget.NewLabel("budget"), container.NewGridWrap(fyne.NewSize(96, p.budget.MinSize().Height), p.budget),
			widget.NewLabel("tokens")))
	head := container.NewVBox(p.bar.buildUI(), widget.NewSeparator(), budgetRow, p.budgetNote, p.meter.buildUI(), p.summary, p.buildOrderNote())
	top := container.NewBorder(head, p.undo, nil, nil, container.NewStack(p.list, container.NewPadded(p.empty)))
	split := container.NewVSplit(top, p.preview.buildUI())
	split.Offset = 0.68
	p.root = split
	return split
}

func (p *attachmentsPanel) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(p.rows) {
		return
	}
	r := o.(*attachmentRow)
	x := p.rows[id]
	r.show(x, p.checkedAgo(x), rowActions{pin: p.pin, priority: p.setPriority, reread: p.reread, diff: p.showDiff, remove: p.remove})
}

// checkedAgo says how long ago the watcher looked at x.
func (p *attachmentsPanel) checkedAgo(x ranked) string {
	if !x.watched || x.watch.CheckedAt.IsZero() {
		return "not yet"
	}
	ago := p.sh.now().Sub(x.watch.CheckedAt).Truncate(time.Second)
	if ago < time.Second {
		return "just now"
	}
	return span(ago) + " ago"
}

// budgetTyped applies a budget as it is typed, when it is one
// (pack.ParseBudget); when it is not, the packing stays under the last
// budget applied, and a line under the field says why and which budget
// is kept.
func (p *attachmentsPanel) budgetTyped(s string) {
	n, err := pack.ParseBudget(s)
	if err != nil {
		p.budgetNote.SetText(fmt.Sprintf("%s. The context stays packed under %s.",
			capitalized(err.Error()), pack.Quantity(p.applied, "token")))
		p.budgetNote.Show()
		return
	}
	p.budgetNote.Hide()
	p.applied = n
	if p.sh.conv.ID != 0 {
		p.sh.prefs.SetInt(budgetKey(p.sh.conv.ID), n)
	}
	p.sh.prefs.SetInt(prefBudget, n) // a new conversation's
	if !p.loading {
		p.repack()
	}
}

// budgetKey is the preference that keeps a conversation's budget.
func budgetKey(conv int64) string { return prefBudget + "." + strconv.FormatInt(conv, 10) }

// load shows the current conversation: it holds it live, reads it and
// ranks it, and starts its watcher.
func (p *attachmentsPanel) load() {
	p.undo.Hide()
	p.items, p.atts, p.memories, p.prompt = nil, nil, nil, prompted{} // another conversation's: a budget change must not pack them
	// Each conversation keeps its own budget; one never given one starts
	// with the last budget typed.
	p.loading = true
	p.applied = p.sh.prefs.IntWithFallback(budgetKey(p.sh.conv.ID), p.sh.prefs.IntWithFallback(prefBudget, pack.DefaultBudget))
	p.budget.SetText(strconv.Itoa(p.applied))
	p.budgetTyped(p.budget.Text) // a budget kept before the maximum may be over it
	p.loading = false
	p.hold()
	p.rerank()
	p.rewatch()
}

// reload is told that the conversation's attachments changed (an attach,
// a removal, an undo). The live conversation already has the change and
// tells the panel; the watcher follows it (watches the new one only).
func (p *attachmentsPanel) reload() { p.syncWatch() }

// rerank reads every attachment (through the cache) into the live
// conversation and packs them under the budget, on a goroutine; a newer
// ranking drops an older one.
func (p *attachmentsPanel) rerank() {
	live := p.live
	if live == nil {
		return
	}
	budget := p.applied
	ctx, gen := p.rank.start(p.sh.ctx)
	ranker, turns := p.ranker, p.earlierTurns()
	p.reading = gen
	run(p.sh.work, ctx, func(ctx context.Context) (outcome, error) {
		if err := live.Load(ctx); err != nil {
			return outcome{}, err
		}
		return rankReads(ctx, ranker, liveReads(live.Items()), budget, turns)
	}, p.shown(gen))
}

// outcome is a ranking ready to show, with the items it was made from.
type outcome struct {
	packing pack.Packing
	items   []*pack.Item
	atts    []hostcore.Attachment
	prompt  prompted
	// doc is the system prompt of packing (see systemPrompt).
	doc string
	// memories are the items' memory metadata, from a ranking that read
	// them; nil from one that only re-packed what was kept.
	memories map[string]hostcore.MemoryMeta
}

// shown returns what shows the ranking of job gen, unless a newer one
// started meanwhile.
func (p *attachmentsPanel) shown(gen uint64) func(outcome, error) {
	return func(o outcome, err error) {
		if !p.rank.current(gen) {
			return
		}
		p.rank.finish(gen)
		wasRead := gen == p.reading
		if wasRead {
			p.reading = 0
		}
		if err != nil {
			p.sh.fail(err)
			return
		}
		p.items, p.atts, p.prompt = o.items, o.atts, o.prompt
		if o.memories != nil {
			p.memories = o.memories
		}
		if wasRead && p.applied != o.packing.Budget {
			p.repack() // typed while the read was in flight
			return
		}
		p.show(o.packing, o.atts, o.doc)
		if wasRead && p.news.waiting() {
			p.showNews() // what the live conversation heard while the read ran
		}
	}
}

// repack packs the attachments last read under the budget now typed,
// reading nothing; before the first ranking, or while one is running, it
// leaves it to the read in flight.
func (p *attachmentsPanel) repack() {
	if p.reading != 0 && p.rank.current(p.reading) {
		return // the read in flight packs under the budget typed by the time it lands
	}
	if p.items == nil {
		p.rerank()
		return
	}
	budget := p.applied
	items, atts, ranker, pr := p.items, p.atts, p.ranker, p.prompt
	ctx, gen := p.rank.start(p.sh.ctx)
	run(p.sh.work, ctx, func(context.Context) (outcome, error) {
		pk := ranker.Repack(items, budget)
		return outcome{packing: pk, items: items, atts: atts, prompt: pr, doc: systemPrompt(pk, pr)}, nil
	}, p.shown(gen))
}

// rankLive ranks the live conversation as it is kept now, reading
// nothing: after a body changed (a turn's read, a Re-read), or an
// attachment was added, removed, pinned or given a priority.
func (p *attachmentsPanel) rankLive() {
	if p.live == nil {
		return
	}
	reads := liveReads(p.live.Items())
	budget := p.applied
	ranker, turns := p.ranker, p.earlierTurns()
	ctx, gen := p.rank.start(p.sh.ctx)
	run(p.sh.work, ctx, func(ctx context.Context) (outcome, error) {
		return rankReads(ctx, ranker, reads, budget, turns)
	}, p.shown(gen))
}

// rankReads ranks reads under budget and renders the system prompt the
// next turn would send, with the turns stored now.
func rankReads(ctx context.Context, ranker *pack.Ranker, reads []hostcore.AttachmentRead, budget int,
	turns func(context.Context) ([]chat.Turn, error)) (outcome, error) {
	earlier, err := turns(ctx)
	if err != nil {
		return outcome{}, err
	}
	items, atts := readItems(reads)
	pk := ranker.Rank(items, budget)
	pr := prompted{reads: reads, earlier: earlier}
	return outcome{packing: pk, items: items, atts: atts, prompt: pr, doc: systemPrompt(pk, pr),
		memories: memoryMetas(items)}, nil
}

// show lays out a ranking.
func (p *attachmentsPanel) show(pk pack.Packing, atts []hostcore.Attachment, doc string) {
	byID := map[string]hostcore.Attachment{}
	for _, a := range atts {
		byID[strconv.FormatInt(a.ID, 10)] = a
	}
	p.packing = pk
	p.rows = p.rows[:0]
	verdicts := map[pack.Verdict]int{}
	for _, d := range pk.Decisions {
		x := ranked{att: byID[d.Item.ID], dec: d}
		x.watch, x.watched = p.watch.state(x.att.ID)
		x.kept = p.kept(x.att.ID)
		x.memory = p.memories[d.Item.ID]
		x.life = p.life.byAtt[x.att.ID]
		p.rows = append(p.rows, x)
		verdicts[d.Verdict]++
	}
	p.keepOrder()
	p.meter.set(pk)
	p.summary.SetText(fmt.Sprintf("%d included · %d dropped for budget · %d held back (audience) · %d unreadable",
		verdicts[pack.VerdictIncluded], verdicts[pack.VerdictDroppedBudget],
		verdicts[pack.VerdictHeldAudience], verdicts[pack.VerdictUnreadable]))
	p.empty.Hidden = len(p.rows) > 0
	p.empty.Refresh()
	p.list.UnselectAll()
	p.list.Refresh()
	p.preview.set(doc)
	p.askLifecycles()
}

// refreshWatch shows what the watcher and the live conversation know of
// each row's freshness (stale, checked) without ranking.
func (p *attachmentsPanel) refreshWatch() {
	for i := range p.rows {
		p.rows[i].watch, p.rows[i].watched = p.watch.state(p.rows[i].att.ID)
		p.rows[i].kept = p.kept(p.rows[i].att.ID)
	}
	p.list.Refresh()
}

// kept is what the live conversation keeps of attachment id.
func (p *attachmentsPanel) kept(id int64) hostcore.LiveItem {
	if p.live == nil {
		return hostcore.LiveItem{}
	}
	it, _ := p.live.Item(id)
	return it
}

// inspect shows a row's attachment in the inspector, read through the
// connection it was attached with.
func (p *attachmentsPanel) inspect(id widget.ListItemID) {
	if id >= len(p.rows) {
		return
	}
	p.list.Unselect(id) // so that tapping it again reads it again
	x := p.rows[id]
	c, err := p.sh.cv.ConnFor(x.att)
	if err != nil {
		p.sh.fail(err)
		return
	}
	p.sh.read(readRequest{conn: c, uri: x.att.URI, title: x.att.Title, annotations: x.att.Annotations})
	p.sh.notify(fmt.Sprintf("#%d %s: %s", x.dec.Rank, x.att.URI, x.dec.Reason)) // the whole reason, which the row may cut
}

// change saves an attachment's pin or priority; the live conversation
// has it then, and the panel ranks again without reading.
func (p *attachmentsPanel) change(a hostcore.Attachment, what string) {
	p.holdOrder() // the row stays under the pointer
	cv := p.sh.cv
	p.sh.act(func(ctx context.Context) error { return cv.UpdateAttachment(ctx, a) }, func() {
		p.sh.notify(what)
	})
}

func (p *attachmentsPanel) pin(a hostcore.Attachment, on bool) {
	a.Pinned = on
	what := "Unpinned " + a.URI
	if on {
		what = "Pinned " + a.URI + ": it ranks before every unpinned item"
	}
	p.change(a, what)
}

func (p *attachmentsPanel) setPriority(a hostcore.Attachment, prio *float64) {
	a.PriorityOverride = prio
	what := "Priority of " + a.URI + " back to the server's"
	if prio != nil {
		what = "Priority of " + a.URI + " set to " + priorityText(*prio)
	}
	p.change(a, what)
}

// remove takes an attachment out of the conversation, offering Undo.
func (p *attachmentsPanel) remove(a hostcore.Attachment) {
	cv := p.sh.cv
	p.sh.act(func(ctx context.Context) error { return cv.RemoveAttachment(ctx, a.ID) }, func() {
		p.removed = a
		p.undone.SetText("Removed " + orNone(a.Title, a.URI) + " (" + a.URI + ")")
		p.undo.Show()
		p.reload()
	})
}

// restore undoes the last removal.
func (p *attachmentsPanel) restore() {
	a := p.removed
	if a.ID == 0 {
		return
	}
	cv := p.sh.cv
	p.sh.act(func(ctx context.Context) error { return cv.RestoreAttachment(ctx, a.ID) }, func() {
		p.removed = hostcore.Attachment{}
		p.undo.Hide()
		p.sh.notify("Restored " + a.URI)
		p.reload()
	})
}

// close stops the ranking and the watcher, and the conversation's turn,
// and lets go of the live conversation.
func (p *attachmentsPanel) close() {
	p.rank.stop()
	p.life.job.stop()
	p.watch.stop()
	p.preview.chat.close()
	if p.letGo != nil {
		p.letGo()
		p.live, p.letGo = nil, nil
	}
}
