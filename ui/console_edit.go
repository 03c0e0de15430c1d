package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/resend"
	"github.com/attache/attache/hostcore/wire"
)

// requestEditor is the console's JSON editor of a request to send: the
// request prefilled, indented; under it, as it is typed, what the host
// would send or exactly why it will not (resend.Parse);
// Send only while the request is one the host sends. The request goes with
// the session's next id, whatever id it is given.
type requestEditor struct {
	c       *console
	was     string // the id of the request it was made from
	text    *keyEntry
	verdict *widget.Label
	sendBtn *button
	d       dialog.Dialog
	req     resend.ClientRequest
}

// editChosen opens the editor on the chosen request.
func (c *console) editChosen() {
	e := c.chosen()
	if e == nil || e.Kind != wire.KindRequest || e.Dir != wire.Sent {
		return
	}
	c.openEditor(prettyJSON(e.Raw), "#"+e.ID)
}

// openEditor opens the editor on text.
func (c *console) openEditor(text, was string) {
	ed := &requestEditor{c: c, was: was}
	ed.text = newMultiLineKeyEntry()
	ed.text.TextStyle.Monospace = true
	ed.text.Wrapping = fyne.TextWrapOff
	ed.text.SetText(text)
	ed.text.OnChanged = func(string) { ed.check() }
	ed.verdict = widget.NewLabel("")
	ed.verdict.Wrapping = fyne.TextWrapWord
	ed.sendBtn = newButton("Send", theme.MailSendIcon(), ed.send)
	ed.sendBtn.Importance = widget.HighImportance
	cancel := newButton("Cancel", nil, func() { ed.d.Hide() })
	hint := caption("Edit the method's params. The session gives the request its next id, and writes its own _meta " +
		"(io.modelcontextprotocol/…); a tools/call passes the consent gate.")
	hint.Wrapping = fyne.TextWrapWord
	bottom := container.NewVBox(ed.verdict, container.NewBorder(nil, nil, nil, container.NewHBox(cancel, ed.sendBtn), hint))
	ed.d = dialog.NewCustomWithoutButtons("Edit and resend "+was, container.NewBorder(nil, bottom, nil, nil, ed.text), c.win)
	ed.d.SetOnClosed(func() {
		if c.editor == ed {
			c.editor = nil
		}
	})
	ed.d.Resize(c.win.Canvas().Size().Subtract(fyne.NewSize(120, 100)))
	closeOnEscape(c.win, ed.d, ed.d.Hide)
	c.editor = ed
	ed.check()
	ed.d.Show()
	c.win.Canvas().Focus(ed.text)
}

// check says what the host would send, or why not, and enables Send.
func (ed *requestEditor) check() {
	req, err := resend.Parse([]byte(ed.text.Text))
	if err != nil {
		ed.verdict.Importance = widget.DangerImportance
		ed.verdict.SetText("Not sent as it is: " + oneLine(err))
		ed.sendBtn.Disable()
		return
	}
	ed.req = req
	ed.verdict.Importance = widget.SuccessImportance
	ed.verdict.SetText("Ready: Send sends " + req.Method + " with the params " + clipDoc(string(req.Params)))
	ed.sendBtn.Enable()
}

// send sends the request as edited, and closes the editor.
func (ed *requestEditor) send() {
	ed.check()
	if ed.sendBtn.Disabled() {
		return
	}
	ed.d.Hide()
	ed.c.send(ed.req, ed.was+", edited")
}
