package ui

import (
	"errors"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore/consent"
)

// OpenChat taps Send beside the context preview: the conversation's window
// opens when a model loop is wired.
func (a *App) OpenChat() { a.attachments.preview.showSend() }

// SendChat types text in the conversation's window and taps Send.
func (a *App) SendChat(text string) error {
	c := a.attachments.preview.chat
	if c.win == nil {
		return errors.New("the conversation's window is not open")
	}
	c.entry.SetText(text)
	c.sendEntry()
	return nil
}

// ChatRunning reports whether a turn is under way.
func (a *App) ChatRunning() bool { return a.attachments.preview.chat.turn.running() }

// ChatAsking reports whether the tool approval dialog is shown.
func (a *App) ChatAsking() bool { return a.attachments.preview.chat.pending != nil }

// AnswerTool answers the tool approval dialog as its buttons do.
func (a *App) AnswerTool(ap consent.Approval) error {
	c := a.attachments.preview.chat
	if c.pending == nil {
		return errors.New("no tool call waits for approval")
	}
	c.pending(ap)
	return nil
}

// ChatWindow is the conversation's window, nil when it is closed.
func (a *App) ChatWindow() fyne.Window { return a.attachments.preview.chat.win }

// ShowProviders opens the model provider editor.
func (a *App) ShowProviders() { a.attachments.preview.chat.editor.show() }

// InspectTurn opens the inspector of turn seq of the open conversation.
func (a *App) InspectTurn(seq int) { a.attachments.preview.chat.inspect(seq) }

// InspectorOpen reports whether turn seq's inspector is open.
func (a *App) InspectorOpen(seq int) bool { return a.attachments.preview.chat.inspectors[seq] != nil }

// ChatToolsRow is the conversation window's "Tools of" row: each switch's
// label, as shown (a broken server's says why).
func (a *App) ChatToolsRow() []string {
	c := a.attachments.preview.chat
	var row []string
	if c.tools == nil {
		return nil
	}
	for _, o := range c.tools.Objects {
		if ch, ok := o.(*check); ok {
			row = append(row, ch.Text)
		}
	}
	return row
}
