package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/pack"
)

// chatView is the conversation with a model, in a window of its own: the
// transcript (the person's messages, the model's text as it streams, tool
// calls and results, warnings, errors and each request's usage), a
// provider picker, the servers whose tools are offered, and Send and Stop.
// Its fields are used on the main goroutine only; a turn runs on a
// goroutine of its own and reports through deliver.
type chatView struct {
	sh *shell

	win        fyne.Window
	lines      *fyne.Container
	scroll     *container.Scroll
	entry      *keyEntry
	send, stop *button
	providers  *selectBox
	picker     *fyne.Container // the provider picker, or the only provider's name
	tools      *fyne.Container
	toolsLoad  job             // the tools row's load in flight
	unservers  func()          // stops the row following the host's servers
	always     *fyne.Container // the tools approved for good, each with Revoke
	conv       int64
	editor     *providerEditor
	inspectors map[int]fyne.Window // open turn inspectors, by Seq

	turn      job
	reply     *widget.Label         // the model's text streaming in, if any
	replyText strings.Builder       // what reply shows
	usage     map[int]*widget.Label // this turn's requests by round
	// pending answers the tool call the approval dialog asks about, while
	// it is shown.
	pending func(consent.Approval)
	// budget is the token budget the preview packs under, so a turn packs
	// what the preview shows; turnEnded tells the preview that the turns
	// it compares with (for the update notes) changed. Either may be nil.
	budget    func() int
	turnEnded func()
}

func newChatView(sh *shell) *chatView {
	c := &chatView{sh: sh}
	c.editor = newProviderEditor(sh, c.providersChanged)
	return c
}

// show opens the conversation's window, or brings it to the front.
func (c *chatView) show() {
	if c.win != nil && c.conv == c.sh.conv.ID {
		c.win.RequestFocus()
		return
	}
	if c.win != nil {
		c.close()
	}
	c.conv = c.sh.conv.ID
	c.win = fyne.CurrentApp().NewWindow("Conversation: " + c.sh.conv.Title + " — Attaché")
	c.win.SetContent(c.buildUI())
	for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter} { // with the focus off the field
		c.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault},
			func(fyne.Shortcut) { c.sendEntry() })
	}
	c.win.Resize(fyne.NewSize(720, 640))
	c.win.SetOnClosed(func() { c.turn.stop(); c.stopFollowing(); c.win = nil; c.closeInspectors() })
	c.unservers = c.followServers()
	c.loadTools()
	c.loadTurns()
	c.win.Show()
}

// close stops the turn in flight and closes the window.
func (c *chatView) close() {
	c.turn.stop()
	c.stopFollowing()
	if c.win != nil {
		w := c.win
		c.win = nil
		w.Close()
	}
	c.closeInspectors()
}

// stopFollowing stops the tools row following the host's servers.
func (c *chatView) stopFollowing() {
	if c.unservers != nil {
		c.unservers()
		c.unservers = nil
	}
	c.toolsLoad.stop()
}

func (c *chatView) buildUI() fyne.CanvasObject {
	c.lines = container.NewVBox()
	c.scroll = container.NewVScroll(c.lines)
	c.entry = newMultiLineKeyEntry()
	c.entry.SetPlaceHolder("Message the model (the conversation's context goes with it). Ctrl+Enter sends")
	c.entry.SetMinRowsVisible(3)
	c.entry.Wrapping = fyne.TextWrapWord
	// Enter makes a new line, Ctrl+Enter sends, Tab moves on to Send.
	c.entry.tabOut, c.entry.onSubmit = true, c.sendEntry
	c.send = newButton("Send", theme.MailSendIcon(), c.sendEntry)
	c.send.Importance = widget.HighImportance
	c.stop = newButton("Stop", theme.MediaStopIcon(), c.turn.stop)
	c.stop.Hide()
	c.providers = newSelect(nil, nil)
	c.picker = container.NewStack()
	c.tools = container.NewHBox()
	c.always = container.NewHBox()
	c.always.Hide()
	manage := newButton("Providers…", theme.SettingsIcon(), c.editor.show)
	manage.Importance = widget.LowImportance
	c.showProviders()
	top := container.NewVBox(
		container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Provider"), c.picker), manage),
		container.NewHBox(widget.NewLabel("Tools of"), c.tools), c.always)
	bottom := container.NewBorder(nil, nil, nil, container.NewVBox(c.send, c.stop), c.entry)
	return container.NewBorder(top, bottom, nil, nil, c.scroll)
}

// showProviders fills the provider picker from the host's providers (the
// config's, then the built-in demo model), each by its label ("local
// (llama3.2)", "demo model (offline, scripted)"). One provider needs no
// picker (a disabled one reads as greyed out); with none, the window says
// how to add one, and Send is off.
func (c *chatView) showProviders() {
	ps := c.sh.host.Providers()
	names := make([]string, len(ps))
	for i, pc := range ps {
		names[i] = pc.Label()
	}
	picked := c.providers.Selected
	c.providers.SetOptions(names)
	switch {
	case slices.Contains(names, picked):
		c.providers.SetSelected(picked)
	case len(names) > 0:
		c.providers.SetSelectedIndex(0)
	default:
		c.providers.ClearSelected()
	}
	var shown fyne.CanvasObject = c.providers
	switch len(ps) {
	case 0:
		shown = widget.NewLabel("none")
		c.say(theme.WarningIcon(), `No model provider is configured. Add one with Providers… above, or in the config file, for example: "providers": [{"name": "local", "kind": "openai", "baseURL": "http://127.0.0.1:11434/v1", "model": "llama3.2", "apiKeyEnv": "OPENAI_API_KEY"}] (kind is openai or anthropic; the key comes from the environment variable or the keyring, never the file).`)
		c.send.Disable()
	case 1:
		shown = widget.NewLabelWithStyle(ps[0].Label(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	if len(ps) > 0 && !c.turn.running() {
		c.send.Enable()
	}
	c.picker.Objects = []fyne.CanvasObject{shown}
	c.picker.Refresh()
}

// providersChanged follows the provider editor's changes.
func (c *chatView) providersChanged() {
	if c.win != nil {
		c.showProviders()
	}
}

// say adds a line to the transcript.
func (c *chatView) say(icon fyne.Resource, text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	row := fyne.CanvasObject(l)
	if icon != nil {
		row = container.NewBorder(nil, nil, container.NewVBox(widget.NewIcon(icon)), nil, l)
	}
	c.lines.Add(row)
	c.scroll.ScrollToBottom()
	return l
}

// model returns the picked provider's model.
func (c *chatView) model() (chat.Model, models.Provider, error) {
	name := ""
	if i := c.providers.SelectedIndex(); i >= 0 {
		if ps := c.sh.host.Providers(); i < len(ps) {
			name = ps[i].Name
		}
	}
	pc, err := c.sh.host.FindProvider(name)
	if err != nil {
		return nil, pc, err
	}
	if c.sh.opts.Models == nil {
		return nil, pc, errors.New("this window cannot build models")
	}
	m, err := c.sh.opts.Models(pc)
	return m, pc, err
}

// sendEntry sends what the person typed, and runs the turn off the main
// goroutine; Stop cancels it.
func (c *chatView) sendEntry() {
	text := strings.TrimSpace(c.entry.Text)
	if text == "" || c.turn.running() {
		return
	}
	m, pc, err := c.model()
	if err != nil {
		c.say(theme.ErrorIcon(), "Error: "+oneLine(err))
		return
	}
	c.entry.SetText("")
	c.say(theme.AccountIcon(), "You: "+text)
	c.reply, c.usage = nil, map[int]*widget.Label{}
	c.replyText.Reset()
	c.send.Disable()
	c.stop.Show()
	ctx, gen := c.turn.start(c.sh.ctx)
	ch, conv := c.sh.opts.Chat, c.conv
	opts := chat.SendOptions{Model: m, Provider: pc.Name, ModelName: pc.ModelName(), Tools: consent.ToolsAsk,
		Approve: c.approve, Budget: c.sendBudget(),
		OnEvent: func(e chat.Event) {
			deliver(func() {
				if c.turn.current(gen) || e.Kind != chat.EventText {
					c.event(e)
				}
			})
		}}
	go func() {
		t, err := ch.Send(ctx, conv, text, opts)
		deliver(func() { c.ended(gen, t, err) })
	}()
}

// ended shows how a turn ended, and the turn's footer; the text that
// arrived stays.
func (c *chatView) ended(gen uint64, t chat.Turn, err error) {
	if c.win == nil {
		return
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled) || errors.Is(err, fault.ErrCanceled):
		c.say(theme.MediaStopIcon(), "Stopped. What arrived is kept.")
	default:
		c.say(theme.ErrorIcon(), "Error: "+oneLine(err))
	}
	if t.ID != 0 {
		c.turnFooter(t)
	}
	c.turn.finish(gen)
	if c.pending != nil {
		c.pending(consent.ApproveDeny) // takes down a dialog the turn no longer waits on
	}
	c.stop.Hide()
	c.send.Enable()
	c.loadTools() // an "Always" given during the turn shows with its Revoke
	if c.turnEnded != nil {
		c.turnEnded()
	}
}

// sendBudget is the budget a turn packs under: the preview's, or 0 (the
// default) without one.
func (c *chatView) sendBudget() int {
	if c.budget == nil {
		return 0
	}
	return max(c.budget(), 0)
}

// event shows one thing that happened in the turn.
func (c *chatView) event(e chat.Event) {
	if c.win == nil {
		return
	}
	switch e.Kind {
	case chat.EventText:
		if c.reply == nil {
			c.reply = c.say(theme.ComputerIcon(), "")
		}
		c.replyText.WriteString(e.Text)
		c.reply.SetText(c.replyText.String())
		c.scroll.ScrollToBottom()
	case chat.EventWarning:
		c.say(theme.WarningIcon(), "Warning: "+e.Text)
	case chat.EventRequest:
		c.reply = nil
		c.replyText.Reset()
		c.usage[e.Request.Round] = c.say(theme.InfoIcon(), usageLine(*e.Request, false))
	case chat.EventReply:
		if l := c.usage[e.Request.Round]; l != nil {
			l.SetText(usageLine(*e.Request, true))
		} else {
			c.say(theme.InfoIcon(), usageLine(*e.Request, true))
		}
	case chat.EventToolCall:
		c.reply = nil
		c.sayToolCall(e.Tool.Tool, e.Tool.Server, e.Call.Arguments)
	case chat.EventToolResult:
		c.sayToolResult(decisionWords(e.Result.Decision), *e.Result)
	}
}

// decisionWords say how the consent gate decided on a call, beside its
// result: "allowed once", "always allowed in this conversation", "not run:
// denied"; "" for a call that never reached it (a tool not offered).
func decisionWords(d *consent.ToolDecision) string {
	switch {
	case d == nil:
		return ""
	case d.By == consent.ApprovedOnce:
		return "allowed once"
	case d.By == consent.ApprovedAlways || d.By == consent.ApprovedGrant:
		return "always allowed in this conversation"
	}
	return d.String()
}

// usageLine is a request's token count: the host's own, and once it is
// answered, the provider's.
func usageLine(r chat.RequestRecord, answered bool) string {
	s := fmt.Sprintf("Request %d: host counted %s (tool listing %d", r.Round, pack.Quantity(r.Counted.Total, "token"), r.Counted.Tools)
	if r.Counted.Images > 0 {
		s += fmt.Sprintf(", images %d", r.Counted.Images)
	}
	s += ")"
	switch {
	case !answered:
		return s + "; waiting for the provider…"
	case r.Usage.Reported:
		return s + fmt.Sprintf("; provider reported %d in, %d out", r.Usage.InputTokens, r.Usage.OutputTokens)
	}
	return s + "; the provider reported no usage"
}
