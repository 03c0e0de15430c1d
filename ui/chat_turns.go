package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// shownTurns is how many of a conversation's earlier turns the window
// shows when it opens; attachectl turns shows them all.
const shownTurns = 50

// shownResultLines bounds a tool result in the transcript; the turn
// inspector and attachectl turns show it whole.
const shownResultLines = 24

// loadTurns shows the conversation's earlier turns as they were stored,
// above anything said since the window opened.
func (c *chatView) loadTurns() {
	ch, conv := c.sh.opts.Chat, c.conv
	run(c.sh.work, c.sh.ctx, func(ctx context.Context) ([]chat.Turn, error) {
		return ch.Turns(ctx, conv)
	}, func(ts []chat.Turn, err error) {
		if c.win == nil || c.conv != conv {
			return
		}
		live := c.lines
		c.lines = container.NewVBox()
		if err != nil {
			c.say(theme.ErrorIcon(), "Error: the earlier turns could not be loaded: "+oneLine(err))
		}
		if len(ts) > shownTurns {
			c.say(theme.InfoIcon(), pack.Quantity(len(ts)-shownTurns, "earlier turn")+" "+pack.Plural(len(ts)-shownTurns, "is", "are")+" not shown here (attachectl turns shows every turn).")
			ts = ts[len(ts)-shownTurns:]
		}
		for _, t := range ts {
			c.showTurn(t)
		}
		if len(ts) == 0 && err == nil && c.sh.conv.Title == hostcore.DemoConversationTitle && c.entry.Text == "" {
			c.entry.SetText(hostcore.DemoQuestion) // the demo's first question, for Send to send at once
		}
		earlier := c.lines
		c.lines = live
		c.lines.Objects = append(earlier.Objects, c.lines.Objects...)
		c.lines.Refresh()
		c.scroll.ScrollToBottom()
	})
}

// showTurn adds a stored turn to the transcript as it looked when it ran:
// the person's message, each request's usage, the model's text, the tool
// calls and results, how it ended, and its footer.
func (c *chatView) showTurn(t chat.Turn) {
	offered := map[string]chat.OfferedTool{}
	for _, o := range t.Tools {
		offered[o.Name] = o
	}
	req := 0
	for _, m := range t.Messages {
		switch m.Role {
		case chat.RoleUser:
			c.say(theme.AccountIcon(), "You: "+m.Text)
		case chat.RoleAssistant:
			if req < len(t.Requests) {
				c.say(theme.InfoIcon(), usageLine(t.Requests[req], true))
				req++
			}
			if m.Text != "" {
				c.say(theme.ComputerIcon(), m.Text)
			}
			for _, call := range m.ToolCalls {
				tool, server := call.Name, ""
				if o, ok := offered[call.Name]; ok {
					tool, server = o.Tool, o.Server
				}
				c.sayToolCall(tool, server, call.Arguments)
			}
		case chat.RoleTool:
			c.sayToolResult(decisionWords(m.Decision), m)
		}
	}
	for ; req < len(t.Requests); req++ {
		c.say(theme.InfoIcon(), usageLine(t.Requests[req], true))
	}
	switch t.Status {
	case chat.TurnFailed:
		c.say(theme.ErrorIcon(), "Error: "+t.Error)
	case chat.TurnStopped:
		c.say(theme.MediaStopIcon(), "Stopped. What arrived is kept.")
	case chat.TurnRunning:
		c.say(theme.WarningIcon(), "This turn did not end: the app closed while it ran.")
	}
	c.turnFooter(t)
}

// turnFooter closes a turn in the transcript: its number, how it ended,
// what its context and requests cost, and Inspect.
func (c *chatView) turnFooter(t chat.Turn) {
	l := widget.NewLabelWithStyle(turnSummary(t), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	l.Wrapping = fyne.TextWrapWord
	seq := t.Seq
	inspect := newButton("Inspect", theme.SearchIcon(), func() { c.inspect(seq) })
	inspect.Importance = widget.LowImportance
	c.lines.Add(container.NewBorder(nil, nil, nil, inspect, l))
	c.lines.Add(widget.NewSeparator())
	c.scroll.ScrollToBottom()
}

// turnSummary is a turn's footer line: its number and status, the context
// sent (tokens and items), and the tokens of all its requests on both
// sides.
func turnSummary(t chat.Turn) string {
	sent := 0
	for _, it := range t.Context.Items {
		if it.Sent() {
			sent++
		}
	}
	var counted int
	var in, out int64
	reported := len(t.Requests) > 0
	for _, r := range t.Requests {
		counted += r.Counted.Total
		in, out = in+r.Usage.InputTokens, out+r.Usage.OutputTokens
		reported = reported && r.Usage.Reported
	}
	who := ""
	if t.Provider != "" || t.Model != "" {
		who = models.ModelLabel(t.Provider, t.Model) + " · "
	}
	s := fmt.Sprintf("Turn %d · %s · %scontext %s of %s, %d of %d %s sent · %s: host counted %s",
		t.Seq, t.Status, who, count(int64(t.Context.Used)), pack.Quantity(t.Context.Budget, "token"), sent, len(t.Context.Items),
		pack.Plural(len(t.Context.Items), "attachment", "attachments"), pack.Quantity(len(t.Requests), "request"),
		pack.Quantity(counted, "token"))
	if reported {
		s += fmt.Sprintf(", provider reported %d in, %d out", in, out)
	}
	return s
}

// sayToolCall adds a tool call to the transcript.
func (c *chatView) sayToolCall(tool, server, args string) {
	if server == "" {
		c.say(theme.SettingsIcon(), fmt.Sprintf("Tool call: %s with %s", tool, args))
		return
	}
	c.say(theme.SettingsIcon(), fmt.Sprintf("Tool call: %s of %s with %s", tool, server, args))
}

// sayToolResult adds a tool's result to the transcript, under a line that
// says how its call was approved (how, if known): JSON indented to be
// read, long results cut (the inspector shows them whole).
func (c *chatView) sayToolResult(how string, m chat.Message) {
	title := "Tool result"
	if m.IsError {
		title = "Tool error"
	}
	if how != "" {
		title += " (" + how + ")"
	}
	head := widget.NewLabel(title + ":")
	body := monospace(readableResult(m.Text, shownResultLines), panelColumns+24)
	parts := []fyne.CanvasObject{head, body}
	if rows := resourceRows(m.Content, c.resourceActions(m.Decision)); rows != nil {
		parts = append(parts, widget.NewLabel("Resources in the result:"), rows)
	}
	if len(m.HeldBack) > 0 {
		held := caption("Held back from the model (for you only): " + strings.Join(m.HeldBack, "; "))
		held.Importance = widget.WarningImportance
		parts = append(parts, held)
	}
	c.lines.Add(container.NewBorder(nil, nil, container.NewVBox(widget.NewIcon(theme.DocumentIcon())), nil,
		container.NewVBox(parts...)))
	c.scroll.ScrollToBottom()
}

// resourceActions read and attach a resource of a tool's result from the
// server and account the gate's decision names (the tool's own).
func (c *chatView) resourceActions(d *consent.ToolDecision) contentActions {
	conn := func() (*hostcore.Conn, bool) {
		if d == nil {
			c.sh.fail(hostcore.NewUsageError("the result does not say which server sent it"))
			return nil, false
		}
		cn, err := c.sh.host.Conn(d.Server, d.Account)
		if err != nil {
			c.sh.fail(err)
			return nil, false
		}
		return cn, true
	}
	return contentActions{
		read: func(tc toolcall.Content) {
			if cn, ok := conn(); ok {
				c.sh.readToolContent(cn, tc)
			}
		},
		attach: func(tc toolcall.Content) {
			if cn, ok := conn(); ok {
				c.sh.attachToolContent(cn, tc)
			}
		},
	}
}

// readableResult is a tool result as a person reads it: JSON indented,
// other text as it is; cut after maxLines lines (0: never), saying how
// many more there are.
func readableResult(text string, maxLines int) string {
	var b bytes.Buffer
	if json.Valid([]byte(text)) && json.Indent(&b, []byte(text), "", "  ") == nil {
		text = b.String()
	}
	text = clipDoc(text)
	lines := strings.Split(text, "\n")
	if maxLines > 0 && len(lines) > maxLines {
		return strings.Join(lines[:maxLines], "\n") + "\n… (" + pack.Quantity(len(lines)-maxLines, "more line") + ": Inspect shows them all)"
	}
	return text
}
