package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// contextPreview shows exactly what would be sent to the model: the
// system prompt of the next turn as chat.NextContext builds it for Send
// (the preamble, the update notes, then the Markdown of the current
// packing), character for character. Send opens the conversation with the
// model (chatView), or without one, shows this same text.
type contextPreview struct {
	sh   *shell
	doc  string
	text *widget.Label
	send *button
	copy *button
	chat *chatView
}

func newContextPreview(sh *shell) *contextPreview {
	return &contextPreview{sh: sh, chat: newChatView(sh)}
}

func (c *contextPreview) buildUI() fyne.CanvasObject {
	c.text = monospace("", panelColumns)
	c.send = newButton("Send", theme.MailSendIcon(), c.showSend)
	c.send.Importance = widget.HighImportance
	c.copy = newButton("Copy", theme.ContentCopyIcon(), c.copyDoc)
	head := container.NewHBox(heading("Context preview"), layout.NewSpacer(), c.copy, c.send)
	note := caption("The system prompt, exactly as sent: preamble, update notes, context.")
	c.set("")
	return container.NewBorder(container.NewVBox(head, note), nil, nil, nil, container.NewVScroll(c.text))
}

// set shows a new system prompt.
func (c *contextPreview) set(doc string) {
	c.doc = doc
	if doc == "" {
		c.text.SetText("(empty: nothing is included yet)")
		return
	}
	c.text.SetText(softWrap(clipDoc(doc), panelColumns))
}

// clipDoc bounds what the preview lays out; Send shows the same bound.
func clipDoc(doc string) string {
	if len(doc) > maxShownText {
		return doc[:maxShownText] + "\n… (" + byteSize(int64(len(doc)-maxShownText)) + " more)"
	}
	return doc
}

// copyDoc puts the exact document on the clipboard: the preview breaks
// long lines for display.
func (c *contextPreview) copyDoc() {
	fyne.CurrentApp().Clipboard().SetContent(c.doc)
	c.sh.notify(fmt.Sprintf("Copied the system prompt (%s) to the clipboard", byteSize(int64(len(c.doc)))))
}

// showSend opens the conversation with the model; without a model loop
// (Options.Chat), it shows what would be sent.
func (c *contextPreview) showSend() {
	if c.sh.opts.Chat != nil && c.sh.opts.Models != nil && c.sh.conv.ID != 0 {
		c.chat.show()
		return
	}
	c.showPrompt("No model provider is configured yet, so nothing is sent. This is the system prompt a model would receive:")
}

// showSent shows, in a dialog, the system prompt the next turn would
// send (Conversation › Show what the model is sent).
func (c *contextPreview) showSent() {
	c.showPrompt("The system prompt the next turn sends, exactly: the preamble, any update notes, then the context.")
}

// showPrompt shows the system prompt in a dialog, under note.
func (c *contextPreview) showPrompt(note string) {
	copyAll := newButton("Copy", theme.ContentCopyIcon(), c.copyDoc)
	body := container.NewBorder(container.NewBorder(nil, nil, nil, copyAll, caption(note)), nil, nil, nil,
		container.NewVScroll(monospace(clipDoc(c.doc), dialogColumns)))
	d := newDialog("What the model is sent", "Close", body, c.sh.win)
	d.Resize(c.sh.win.Canvas().Size().Subtract(fyne.NewSize(120, 120)))
	closeOnEscape(c.sh.win, d, d.Hide)
	d.Show()
}
