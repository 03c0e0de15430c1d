package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/pack"
)

// turnInspector is a window that shows one stored turn whole: the context
// it sent (every attachment in rank order, with its verdict, tokens and
// cache status, and the supersession notes), the tools offered and what
// their listing cost, each request's tokens on both sides, the messages
// with tool results in full, the system prompt exactly as sent, and Replay,
// which sends the turn's first request again to the picked provider and
// shows the answer without storing it. Its fields are used on the main
// goroutine only.
type turnInspector struct {
	c    *chatView
	t    chat.Turn
	win  fyne.Window
	job  job
	out  *widget.Label // the replay's answer as it streams
	text strings.Builder
	run  *button
}

// inspect opens the inspector of turn seq, read again from the store, or
// brings it to the front.
func (c *chatView) inspect(seq int) {
	if w := c.inspectors[seq]; w != nil {
		w.RequestFocus()
		return
	}
	ch, conv := c.sh.opts.Chat, c.conv
	run(c.sh.work, c.sh.ctx, func(ctx context.Context) (chat.Turn, error) {
		return ch.Turn(ctx, conv, seq)
	}, func(t chat.Turn, err error) {
		if c.win == nil || c.conv != conv {
			return
		}
		if err != nil {
			c.say(theme.ErrorIcon(), "Error: "+oneLine(err))
			return
		}
		ti := &turnInspector{c: c, t: t}
		ti.show()
	})
}

// closeInspectors closes every turn inspector of the conversation.
func (c *chatView) closeInspectors() {
	for _, w := range c.inspectors {
		w.Close()
	}
	c.inspectors = nil
}

func (ti *turnInspector) show() {
	c := ti.c
	ti.win = fyne.CurrentApp().NewWindow(fmt.Sprintf("Turn %d of %s — Attaché", ti.t.Seq, c.sh.conv.Title))
	tabs := container.NewAppTabs(
		container.NewTabItem("Context sent", container.NewVScroll(ti.contextTab())),
		container.NewTabItem("Requests and messages", container.NewVScroll(ti.requestsTab())),
		container.NewTabItem("System prompt", ti.systemTab()),
		container.NewTabItem("Replay", ti.replayTab()))
	copyJSON := newButton("Copy the turn as JSON", theme.ContentCopyIcon(), ti.copyJSON)
	head := widget.NewLabelWithStyle(turnSummary(ti.t), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.Wrapping = fyne.TextWrapWord
	ti.win.SetContent(container.NewBorder(head, container.NewHBox(copyJSON), nil, nil, tabs))
	ti.win.Resize(fyne.NewSize(760, 560))
	seq := ti.t.Seq
	ti.win.SetOnClosed(func() {
		ti.job.stop()
		if c.inspectors[seq] == ti.win {
			delete(c.inspectors, seq)
		}
	})
	if c.inspectors == nil {
		c.inspectors = map[int]fyne.Window{}
	}
	c.inspectors[seq] = ti.win
	ti.win.Show()
}

// contextTab lists the turn's context: how it was packed, each item in
// rank order, the supersession notes and the tools offered.
func (ti *turnInspector) contextTab() fyne.CanvasObject {
	t, box := ti.t, container.NewVBox()
	add := func(text string, style fyne.TextStyle) {
		l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, style)
		l.Wrapping = fyne.TextWrapWord
		box.Add(l)
	}
	sc := t.Context
	what := fmt.Sprintf("%s · started %s", models.ModelLabel(t.Provider, t.Model), t.StartedAt.Local().Format("2006-01-02 15:04:05"))
	if !t.FinishedAt.IsZero() {
		what += fmt.Sprintf(" · took %.1f s", t.FinishedAt.Sub(t.StartedAt).Seconds())
	}
	add(what, fyne.TextStyle{})
	if t.Error != "" {
		add(fmt.Sprintf("Ended with %s: %s", t.ErrorKind, t.Error), fyne.TextStyle{})
	}
	packed := "Context: " + count(int64(sc.Used)) + " of " + pack.Quantity(sc.Budget, "token")
	if sc.Exceeded > 0 {
		packed += ", " + count(int64(sc.Exceeded)) + " over the budget (pinned or priority-1 items are never dropped)"
	}
	add(packed, fyne.TextStyle{Bold: true})
	if len(sc.Items) == 0 {
		add("Nothing was attached.", fyne.TextStyle{Italic: true})
	}
	for _, it := range sc.Items {
		line := fmt.Sprintf("%d. %s · %s · %s · priority %.2f", it.Rank, it.Verdict, it.URI, pack.Quantity(it.Tokens, "token"), it.Priority)
		if it.Pinned {
			line += " · pinned"
		}
		if it.Cache != "" {
			line += " · cache " + string(it.Cache)
		}
		if it.Account != "" {
			line += " · " + it.Server + " as " + it.Account
		} else {
			line += " · " + it.Server
		}
		if it.Reason != "" {
			line += " — " + it.Reason
		}
		add(line, fyne.TextStyle{})
	}
	if images := imagesSent(sc); images != nil {
		box.Add(images)
	}
	if len(sc.Supersessions) > 0 {
		add("Supersession notes sent", fyne.TextStyle{Bold: true})
		for _, s := range sc.Supersessions {
			add(s.Note, fyne.TextStyle{})
		}
	}
	add(fmt.Sprintf("Tools offered: %d, their listing %s in every request", len(t.Tools), pack.Quantity(t.ListingTokens, "token")), fyne.TextStyle{Bold: true})
	for _, o := range t.Tools {
		if o.Name == o.Tool {
			add(o.Tool+" of "+o.Server, fyne.TextStyle{})
		} else {
			add(fmt.Sprintf("%s (%s of %s)", o.Name, o.Tool, o.Server), fyne.TextStyle{})
		}
	}
	for _, m := range t.Messages {
		for _, h := range m.HeldBack {
			add("Held back from the model, in the result of "+m.ToolName+" (its audience is the user only): "+h, fyne.TextStyle{})
		}
	}
	return box
}

// requestsTab shows each request's tokens and every message, tool results
// whole.
func (ti *turnInspector) requestsTab() fyne.CanvasObject {
	box := container.NewVBox()
	for _, r := range ti.t.Requests {
		line := usageLine(r, true)
		if r.Model != "" {
			line += " · answered by " + r.Model
		}
		if r.StopReason != "" {
			line += " · stop: " + r.StopReason
		}
		l := widget.NewLabel(line)
		l.Wrapping = fyne.TextWrapWord
		box.Add(l)
	}
	box.Add(widget.NewSeparator())
	for _, m := range ti.t.Messages {
		head := string(m.Role)
		switch {
		case m.Role == chat.RoleTool && m.IsError:
			head = "tool " + m.ToolName + " (error)"
		case m.Role == chat.RoleTool:
			head = "tool " + m.ToolName
		}
		if m.Decision != nil {
			head += ", " + m.Decision.String()
		}
		box.Add(widget.NewLabelWithStyle(head, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		if m.Text != "" {
			box.Add(monospace(readableResult(m.Text, 0), panelColumns+24))
		}
		for _, call := range m.ToolCalls {
			box.Add(monospace("→ "+call.Name+" "+call.Arguments, panelColumns+24))
		}
		for _, h := range m.HeldBack {
			l := widget.NewLabel("Held back from the model (audience user only, shown to the person): " + h)
			l.Wrapping, l.Importance = fyne.TextWrapWord, widget.WarningImportance
			box.Add(l)
		}
	}
	return box
}

// systemTab is the system prompt exactly as sent, with Copy.
func (ti *turnInspector) systemTab() fyne.CanvasObject {
	sys := ti.t.Context.System
	copySys := newButton("Copy the system prompt", theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(sys)
		ti.c.sh.notify(fmt.Sprintf("Copied turn %d's system prompt (%s)", ti.t.Seq, byteSize(int64(len(sys)))))
	})
	return container.NewBorder(nil, container.NewHBox(copySys), nil, nil,
		container.NewVScroll(monospace(clipDoc(sys), panelColumns+24)))
}

// replayTab sends the turn's first request again to the provider picked
// in the conversation window.
func (ti *turnInspector) replayTab() fyne.CanvasObject {
	note := widget.NewLabel("Replay sends this turn's first request again (the same system prompt, tools and messages) " +
		"to the provider picked in the conversation window, and shows the answer here. Nothing is stored and no tool is run.")
	note.Wrapping = fyne.TextWrapWord
	ti.out = widget.NewLabel("")
	ti.out.Wrapping = fyne.TextWrapWord
	ti.run = newButton("Replay", theme.MediaReplayIcon(), ti.replay)
	ti.run.Importance = widget.HighImportance
	if ti.c.sh.opts.Chat == nil || ti.c.sh.opts.Models == nil || len(ti.c.sh.host.Providers()) == 0 {
		ti.run.Disable()
	}
	return container.NewBorder(container.NewVBox(note, container.NewHBox(ti.run)), nil, nil, nil, container.NewVScroll(ti.out))
}

// replay runs the replay off the main goroutine, streaming into out.
func (ti *turnInspector) replay() {
	m, pc, err := ti.c.model()
	if err != nil {
		ti.out.SetText("Error: " + oneLine(err))
		return
	}
	ti.text.Reset()
	ti.out.SetText("Asking " + pc.Label() + "…")
	ti.run.Disable()
	ctx, gen := ti.job.start(ti.c.sh.ctx)
	ch, conv, seq := ti.c.sh.opts.Chat, ti.t.ConversationID, ti.t.Seq
	go func() {
		reply, err := ch.Replay(ctx, conv, seq, m, func(s string) {
			deliver(func() {
				if ti.job.current(gen) {
					ti.text.WriteString(s)
					ti.out.SetText(ti.text.String())
				}
			})
		})
		deliver(func() {
			if !ti.job.current(gen) {
				return
			}
			ti.job.finish(gen)
			ti.run.Enable()
			ti.out.SetText(replayText(pc, reply, err))
		})
	}()
}

// replayText is what a replay got: the answer, the tools the model would
// call, and the usage, or the error.
func replayText(pc models.Provider, reply chat.ModelReply, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered:\n\n%s", pc.Label(), reply.Text)
	for _, call := range reply.ToolCalls {
		fmt.Fprintf(&b, "\n\nIt would call %s with %s (not run in a replay).", call.Name, call.Arguments)
	}
	if reply.Usage.Reported {
		fmt.Fprintf(&b, "\n\nThe provider reported %s in, %d out.", pack.Quantity(int(reply.Usage.InputTokens), "token"), reply.Usage.OutputTokens)
	}
	if err != nil {
		fmt.Fprintf(&b, "\n\nError: %s", oneLine(err))
	}
	return b.String()
}

// copyJSON puts the turn, as stored, on the clipboard.
func (ti *turnInspector) copyJSON() {
	b, err := json.MarshalIndent(ti.t, "", "  ")
	if err != nil {
		ti.c.sh.fail(err)
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(string(b))
	ti.c.sh.notify(fmt.Sprintf("Copied turn %d as JSON (%s)", ti.t.Seq, byteSize(int64(len(b)))))
}
