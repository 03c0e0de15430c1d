package ui

import (
	"context"
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/resend"
	"github.com/attache/attache/hostcore/wire"
)

// The console acts on the chosen message. Resend sends a request the host
// sent again, on the same connection (the app's own: its effects reach the
// app's subscriptions and cache), and chooses the new request, with its
// new id, in the history. Edit and resend opens the request in a JSON
// editor, checks it as it is typed (resend.Parse: only the
// session's own methods, never a response or a notification) and sends it
// the same way. A tools/call passes the consent gate as the person's own
// call: pressing the button is the approval, and a tool the server says is
// destructive is confirmed first. Pin keeps a message beyond the record's
// bounds.

func (c *console) buildActions() fyne.CanvasObject {
	c.resend = newButton("Resend", theme.MailReplyIcon(), c.resendChosen)
	c.edit = newButton("Edit and resend…", theme.DocumentCreateIcon(), c.editChosen)
	c.pin = newButton("Pin", theme.ContentAddIcon(), c.togglePin)
	c.note = widget.NewLabel("")
	c.note.Wrapping = fyne.TextWrapWord
	c.note.Hide()
	c.showActions(nil)
	return container.NewHBox(c.resend, c.edit, c.pin)
}

// resendable says whether e is a request the host may send again, and if
// not, why.
func resendable(e *wire.RPCEntry) (bool, string) {
	switch {
	case e == nil:
		return false, ""
	case e.Kind != wire.KindRequest:
		return false, "only a request can be sent again: this is a " + string(e.Kind)
	case e.Dir != wire.Sent:
		return false, "the server sent this request: the host only answers it"
	case e.Truncated:
		return false, "the record kept only part of this request"
	}
	if _, err := resend.Parse(e.Raw); err != nil {
		return false, oneLine(err)
	}
	return true, ""
}

// showActions enables what can be done with the chosen message.
func (c *console) showActions(e *wire.RPCEntry) {
	ok, _ := resendable(e)
	enable(c.resend, ok)
	enable(c.edit, e != nil && e.Kind == wire.KindRequest && e.Dir == wire.Sent && !e.Truncated)
	enable(c.pin, e != nil)
	if e != nil && e.Pinned {
		c.pin.SetText("Unpin")
		c.pin.SetIcon(theme.ContentRemoveIcon())
	} else {
		c.pin.SetText("Pin")
		c.pin.SetIcon(theme.ContentAddIcon())
	}
}

// enable enables b when on, and disables it otherwise.
func enable(b fyne.Disableable, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// chosen is the message chosen, or nil.
func (c *console) chosen() *wire.RPCEntry {
	if c.selected < 0 || c.selected >= len(c.shown) {
		return nil
	}
	return &c.entries[c.shown[c.selected]]
}

// tell puts what an action did under the message's line.
func (c *console) tell(msg string, imp widget.Importance) {
	c.note.Importance = imp
	c.note.SetText(msg)
	c.note.Show()
}

// resendChosen sends the chosen request again, as it was.
func (c *console) resendChosen() {
	e := c.chosen()
	if ok, why := resendable(e); !ok {
		if why != "" {
			c.tell("Not sent: "+why, widget.DangerImportance)
		}
		return
	}
	req, _ := resend.Parse(e.Raw)
	c.send(req, "#"+e.ID)
}

// send sends req on the console's connection; when it lands, the history
// is read again and the request as sent is chosen. was names the request
// it comes from.
func (c *console) send(req resend.ClientRequest, was string) {
	conn := c.conn
	if conn == nil {
		return
	}
	c.tell("Sending "+req.Method+"…", widget.MediumImportance)
	opts := &resend.Options{Confirm: c.confirm}
	run(c.sh.work, c.sh.ctx, func(ctx context.Context) (resend.Result, error) {
		return conn.Resend(ctx, req, opts)
	}, func(res resend.Result, err error) {
		if c.win == nil || c.conn != conn {
			return
		}
		c.tell(resentWords(res, was, req.Meta, err))
		c.selectSeq = res.Seq
		c.refresh()
	})
}

// resentWords say what a resend did.
func resentWords(res resend.Result, was string, meta bool, err error) (string, widget.Importance) {
	s := "Sent " + res.Method
	if res.ID != "" {
		s += " as #" + res.ID
	} else {
		s = res.Method + ": nothing went on the wire"
	}
	if was != "" && res.ID != "" {
		s += " (was " + was + ")"
	}
	if res.Note != "" {
		s += " · " + res.Note
	}
	if meta {
		s += " · the session wrote its own _meta"
	}
	if err != nil {
		if errors.Is(err, fault.ErrNotApproved) || res.ID == "" {
			return s + " · " + oneLine(err), widget.DangerImportance
		}
		return s + " · the server answered with an error: " + oneLine(err), widget.WarningImportance
	}
	return s, widget.SuccessImportance
}

// confirm asks the person to confirm a tools/call of a tool the server
// says is destructive (resend.Options.Confirm). It waits on the
// resend's goroutine for the answer, or for ctx to end.
func (c *console) confirm(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	got := make(chan consent.Approval, 1)
	deliver(func() {
		if c.win == nil {
			got <- consent.ApproveDeny
			return
		}
		msg := fmt.Sprintf("%s of %s (%s) is destructive, the server says. %s\n\nArguments: %s",
			req.Tool.Name, req.Server, req.Account, toolHint(req.Tool), clipDoc(string(req.Arguments)))
		text := widget.NewLabel(msg)
		text.Wrapping = fyne.TextWrapWord
		d := newConfirmDialog("Run "+req.Tool.Name+"?", "Run it", "Cancel", text, func(ok bool) {
			if ok {
				got <- consent.ApproveOnce
			} else {
				got <- consent.ApproveDeny
			}
		}, c.win)
		d.Resize(fyne.NewSize(480, 0))
		c.confirming = d
		d.Show()
	})
	select {
	case a := <-got:
		deliver(func() { c.confirming = nil })
		return a, nil
	case <-ctx.Done():
		deliver(func() {
			if c.confirming != nil {
				c.confirming.Hide()
				c.confirming = nil
			}
		})
		return consent.ApproveDeny, ctx.Err()
	}
}

// togglePin pins the chosen message, or unpins it.
func (c *console) togglePin() {
	e := c.chosen()
	if e == nil || c.conn == nil {
		return
	}
	tap := c.conn.Tap()
	if e.Pinned {
		tap.Unpin(e.Seq)
		c.tell("Unpinned message "+fmt.Sprint(e.Seq)+": the record's bounds apply to it again", widget.MediumImportance)
	} else if err := tap.Pin(e.Seq); err != nil {
		c.tell(oneLine(err), widget.DangerImportance)
		return
	} else {
		c.tell("Pinned: the record keeps this message however long the session grows", widget.SuccessImportance)
	}
	c.selectSeq = e.Seq
	c.refresh()
}
