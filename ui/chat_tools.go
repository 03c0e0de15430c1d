package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// approve asks the person whether to run a tool call
// (chat.SendOptions.Approve): a dialog with the tool, its server and
// the arguments, and Allow once, Always for this tool in this
// conversation, or Deny. It waits on the turn's goroutine for the answer or
// for ctx to end (Stop), which takes the dialog down and denies. A window
// closed before the dialog could be shown denies at once.
func (c *chatView) approve(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	got := make(chan consent.Approval, 1)
	shown := make(chan dialog.Dialog, 1)
	ran := false // f and after run on one goroutine: the main one, or this when no window is open
	deliverThen(func() {
		ran = true
		if c.win == nil {
			got <- consent.ApproveDeny
			close(shown)
			return
		}
		var d dialog.Dialog
		answer := func(a consent.Approval) func() {
			return func() {
				c.pending = nil
				select {
				case got <- a:
				default:
				}
				d.Hide()
			}
		}
		note := "The model asks to run " + req.Tool.Name + " of " + req.Server
		if req.Account != "" {
			note += " (" + req.Account + ")"
		}
		note += ". " + toolHint(req.Tool)
		once := newButton("Allow once", nil, answer(consent.ApproveOnce))
		once.Importance = widget.HighImportance
		buttons := container.NewHBox(once,
			newButton("Always for this tool in this conversation", nil, answer(consent.ApproveAlways)),
			newButton("Deny", nil, answer(consent.ApproveDeny)))
		args := jsonView(clipDoc(string(req.Arguments))) // indented, no token cut
		args.SetMinSize(fyne.NewSize(560, min(args.Content.MinSize().Height, 240)))
		body := container.NewVBox(widget.NewLabel(note), widget.NewLabel("Arguments:"), args, container.NewCenter(buttons))
		d = dialog.NewCustomWithoutButtons("Run "+req.Tool.Name+"?", body, c.win)
		d.SetOnClosed(func() {
			c.pending = nil
			select {
			case got <- consent.ApproveDeny:
			default:
			}
		})
		c.pending = func(a consent.Approval) { answer(a)() }
		d.Show()
		shown <- d
	}, func() {
		if !ran { // the window closed first: no dialog, and no one to answer
			got <- consent.ApproveDeny
			close(shown)
		}
	})
	select {
	case a := <-got:
		return a, nil
	case <-ctx.Done():
		go func() {
			if d, ok := <-shown; ok {
				deliver(d.Hide)
			}
		}()
		return consent.ApproveDeny, ctx.Err()
	}
}

// loadTools shows a switch for each server whose tools may be offered in
// the conversation: on by default for the servers of its attachments, as
// the model loop decides, unless the person switched it. A server that
// cannot offer tools now (its connection failed or was lost, it declares
// no tools) says why, its switch disabled. The row follows the host
// (followServers): a load in flight is dropped for a newer one.
func (c *chatView) loadTools() {
	ch, conv, host := c.sh.opts.Chat, c.conv, c.sh.host
	type found struct {
		switches []toolSwitch
		grants   []consent.ToolGrant
	}
	ctx, gen := c.toolsLoad.start(c.sh.ctx)
	run(c.sh.work, ctx, func(ctx context.Context) (found, error) {
		sw, err := ch.ServerSwitches(ctx, conv)
		if err != nil {
			return found{}, err
		}
		out := make([]toolSwitch, 0, len(sw))
		for _, s := range sw {
			out = append(out, toolSwitch{s, toolsUnavailable(host, s.Server)})
		}
		grants, err := ch.Grants(ctx, conv)
		return found{out, grants}, err
	}, func(f found, err error) {
		if !c.toolsLoad.current(gen) {
			return
		}
		c.toolsLoad.finish(gen)
		if err != nil {
			c.sh.fail(err)
			return
		}
		c.showTools(f.switches)
		c.showAlways(f.grants)
	})
}

// followServers keeps the row in step with the host's servers as they
// are: added, edited, removed, connected or failed. It returns the
// function that stops it.
func (c *chatView) followServers() (stop func()) {
	return c.sh.host.OnServersChanged(func() {
		deliverFromHook(func() {
			if c.win != nil {
				c.loadTools()
			}
		})
	})
}

// toolSwitch is a server's switch and, when its tools cannot be offered
// now, why.
type toolSwitch struct {
	chat.ServerSwitch
	broken string
}

// toolsUnavailable says why server's tools cannot be offered now, from
// what the host knows of its connection (it connects nothing), or "".
func toolsUnavailable(host *hostcore.Host, server string) string {
	conn, err := host.Conn(server, "")
	if err != nil {
		return "not usable: " + shortReason(err)
	}
	info := conn.Info()
	switch info.State {
	case hostcore.StateFailed, hostcore.StateDisconnected:
		if info.LastError != nil {
			return "not connected: " + shortReason(info.LastError)
		}
		return "not connected"
	case hostcore.StateClosed:
		return "closed"
	case hostcore.StateConnected:
		if !info.Capabilities.Tools {
			return "no tools"
		}
	}
	return ""
}

// shortReason is an error's sentence, without its kind's heading or its
// advice ("not connected: the server's command names …", not "not
// connected: Usage: …"), cut to fit beside a switch.
func shortReason(err error) string {
	const most = 40 // the row is one line of switches: a long reason would widen the window
	_, msg, _, _ := explain(err)
	s := []rune(strings.Join(strings.Fields(msg), " "))
	if len(s) <= most {
		return string(s)
	}
	return string(s[:most-1]) + "…"
}

// showTools lays out the switches; a broken server's says why it is off
// the table, and is disabled.
func (c *chatView) showTools(switches []toolSwitch) {
	if c.win == nil {
		return
	}
	c.tools.RemoveAll()
	for _, sw := range switches {
		name, label := sw.Server, sw.Server
		if sw.broken != "" {
			label += " (" + sw.broken + ")"
		}
		check := newCheck(label, nil)
		check.SetChecked(sw.On)
		check.OnChanged = func(on bool) { c.switchTools(name, on) }
		if sw.broken != "" {
			check.Disable()
		}
		c.tools.Add(check)
	}
	c.tools.Refresh()
}

// showAlways lists the tools approved with "Always" in the conversation
// that still hold (their server runs and points where it did), each with
// Revoke: the next call of a revoked tool is asked about again.
func (c *chatView) showAlways(grants []consent.ToolGrant) {
	if c.win == nil {
		return
	}
	c.always.RemoveAll()
	for _, g := range grants {
		server, tool := g.Server, g.Tool
		b := newButton(tool+" of "+server, theme.CancelIcon(), func() { c.revoke(server, tool) })
		b.Importance = widget.LowImportance
		c.always.Add(b)
	}
	if len(c.always.Objects) == 0 {
		c.always.Hide()
		return
	}
	c.always.Objects = append([]fyne.CanvasObject{widget.NewLabel("Always allowed (tap to revoke):")}, c.always.Objects...)
	c.always.Show()
	c.always.Refresh()
}

// revoke forgets "Always" for a tool in the conversation.
func (c *chatView) revoke(server, tool string) {
	ch, conv := c.sh.opts.Chat, c.conv
	c.sh.act(func(ctx context.Context) error {
		return ch.Revoke(ctx, conv, server, tool)
	}, func() {
		c.sh.notify(tool + " of " + server + " will be asked about again in this conversation")
		c.loadTools()
	})
}

// switchTools turns a server's tools on or off in the conversation.
func (c *chatView) switchTools(server string, on bool) {
	ch, conv := c.sh.opts.Chat, c.conv
	run(c.sh.work, c.sh.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, ch.SwitchServerTools(ctx, conv, server, on)
	}, func(_ struct{}, err error) {
		if err != nil {
			c.sh.fail(err)
		}
	})
}

// toolHint says what the server says of a tool, for a person asked to
// approve a call of it.
func toolHint(t toolcall.Tool) string {
	switch {
	case t.ReadOnly:
		return "The server says it only reads."
	case t.Destructive:
		return "The server says it may change or delete data."
	}
	return "The server says it may add data, but not change or delete any."
}
