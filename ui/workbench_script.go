package ui

import (
	"fmt"

	"github.com/attache/attache/hostcore/wire"
)

// The workbench's script hooks (see script.go): the inspector's Subscribe,
// its stale body, the Subscriptions view, and the console's Resend and Edit
// and resend. Call them on the main goroutine.

// InspectorSubscribe presses the inspector's Subscribe (or Unsubscribe).
func (a *App) InspectorSubscribe() error {
	w := a.inspector.watch
	if w.subscribe.Hidden || w.open == nil {
		return fmt.Errorf("the inspector offers no Subscribe: %s", w.note.Text)
	}
	w.subscribe.OnTapped()
	return nil
}

// InspectorStale reports whether the inspector says its body is stale.
func (a *App) InspectorStale() bool {
	w := a.inspector.watch
	return w.open != nil && w.open.State().Stale && !w.bar.Hidden
}

// ShowSubscriptions opens the Subscriptions view, as View › Subscriptions
// does.
func (a *App) ShowSubscriptions() { a.subscriptions.show() }

// ConsoleChooseRequest chooses the last request of method the host sent.
func (a *App) ConsoleChooseRequest(method string) error {
	c := a.console
	c.filter.SetText("")
	for i := len(c.shown) - 1; i >= 0; i-- {
		if e := c.entries[c.shown[i]]; e.Kind == wire.KindRequest && e.Dir == wire.Sent && e.Method == method {
			c.list.Select(i)
			c.list.ScrollTo(i)
			return nil
		}
	}
	return fmt.Errorf("the console shows no %s request", method)
}

// ConsoleResend presses Resend on the chosen request.
func (a *App) ConsoleResend() { a.console.resendChosen() }

// ConsoleEditAndSend opens Edit and resend on the chosen request, puts
// text in it and presses Send.
func (a *App) ConsoleEditAndSend(text string) error {
	c := a.console
	c.editChosen()
	if c.editor == nil {
		return fmt.Errorf("the chosen message is not a request the host sent")
	}
	c.editor.text.SetText(text)
	if c.editor.sendBtn.Disabled() {
		return fmt.Errorf("the editor will not send it: %s", c.editor.verdict.Text)
	}
	c.editor.send()
	return nil
}

// AttachmentStale reports whether an attachment's row shows the stale
// badge.
func (a *App) AttachmentStale() bool {
	for _, x := range a.attachments.rows {
		if x.kept.Stale {
			return true
		}
	}
	return false
}
