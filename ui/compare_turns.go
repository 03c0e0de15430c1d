package ui

import (
	"context"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
)

// turnMarks is the Compare window's "Your turns" tab: the current
// conversation's turns, each with a checkbox per attachment it had, to
// mark which resources the turn needed (the lab's ground truth, kept with
// the turn), and a button that makes those turns the replay to run.
type turnMarks struct {
	c     *compareView
	list  *fyne.Container
	info  *widget.Label
	use   *button
	turns []chat.Turn
}

func newTurnMarks(c *compareView) *turnMarks { return &turnMarks{c: c} }

func (m *turnMarks) buildUI() fyne.CanvasObject {
	m.info = widget.NewLabel("")
	m.info.Wrapping = fyne.TextWrapWord
	m.list = container.NewVBox()
	m.use = newButton("Replay these turns", nil, m.useTurns)
	m.use.Disable()
	reload := newButton("Reload", nil, m.load)
	top := container.NewVBox(m.info, container.NewHBox(reload, m.use))
	return container.NewBorder(top, nil, nil, nil, container.NewVScroll(m.list))
}

// load reads the current conversation's turns.
func (m *turnMarks) load() {
	sh := m.c.sh
	ch, conv := sh.opts.Chat, sh.conv
	if ch == nil || conv.ID == 0 {
		m.info.SetText("No turns to mark: the conversation's turns are kept once a model provider is configured and a message sent.")
		return
	}
	run(sh.work, sh.ctx, func(ctx context.Context) ([]chat.Turn, error) {
		return ch.Turns(ctx, conv.ID)
	}, func(turns []chat.Turn, err error) {
		if err != nil {
			sh.fail(err)
			return
		}
		m.show(conv.Title, turns)
	})
}

// show lists turns with their checkboxes.
func (m *turnMarks) show(title string, turns []chat.Turn) {
	m.turns = turns
	m.list.RemoveAll()
	m.info.SetText(fmt.Sprintf("Conversation %q: %s. Tick the resources each turn needed: the lab counts a turn reached when all of them reached the model.", title, pack.Quantity(len(turns), "turn")))
	if len(turns) == 0 {
		m.use.Disable()
		return
	}
	m.use.Enable()
	for i := range turns {
		t := &m.turns[i]
		text := ""
		if len(t.Messages) > 0 {
			text = t.Messages[0].Text
		}
		head := widget.NewLabel(fmt.Sprintf("Turn %d: %s", t.Seq, text))
		head.Truncation = fyne.TextTruncateEllipsis
		head.TextStyle = fyne.TextStyle{Bold: true}
		m.list.Add(head)
		if len(t.Context.Items) == 0 {
			m.list.Add(widget.NewLabel("    nothing was attached"))
		}
		for _, it := range t.Context.Items {
			uri := it.URI
			check := newCheck(uri+" ("+string(it.Verdict)+")", nil)
			check.SetChecked(slices.Contains(t.Relevant, uri))
			check.OnChanged = func(on bool) { m.mark(t, uri, on) }
			m.list.Add(container.NewPadded(check))
		}
	}
}

// mark keeps a checkbox's answer with its turn.
func (m *turnMarks) mark(t *chat.Turn, uri string, on bool) {
	sh := m.c.sh
	id := t.ID
	if on && !slices.Contains(t.Relevant, uri) {
		t.Relevant = append(t.Relevant, uri)
	} else if !on {
		t.Relevant = slices.DeleteFunc(t.Relevant, func(u string) bool { return u == uri })
	}
	run(sh.work, sh.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, sh.opts.Chat.MarkRelevant(ctx, id, uri, on)
	}, func(_ struct{}, err error) {
		if err != nil {
			sh.fail(err)
		}
	})
}

// useTurns makes the listed turns, with their marks, the replay, and
// runs it.
func (m *turnMarks) useTurns() {
	c := m.c
	c.replay = labrun.FromTurns(fmt.Sprintf("conv-%d", c.sh.conv.ID), m.turns, nil)
	c.source, c.bundled = fmt.Sprintf("Conversation %q", c.sh.conv.Title), false
	c.describe()
	if c.tabs != nil {
		c.tabs.SelectIndex(0)
	}
	c.start() // runs at once; start clears the previous results first
}
