package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/expand"
)

// byIDTab is the Memories tab. It attaches a threengram memory by its id:
// the id becomes a URI through the template the server advertises with a
// single {id} variable (Conversations.AttachID), never by pasting strings
// together. Below, Search memories finds them by their words.
type byIDTab struct {
	sh   *shell
	conn *hostcore.Conn
	tpl  *hostcore.Template // the server's id template, once known
	find job

	id        *keyEntry
	preview   *widget.Label
	refusal   *widget.Label
	readBtn   *button
	attachBtn *button
	search    *memorySearch
}

func newByIDTab(sh *shell) *byIDTab { return &byIDTab{sh: sh, search: newMemorySearch(sh)} }

func (t *byIDTab) buildUI() fyne.CanvasObject {
	t.id = newKeyEntry()
	t.id.SetPlaceHolder("a threengram memory id, e.g. m00qgwdvbb")
	t.id.OnChanged = func(string) { t.updatePreview() }
	t.id.OnSubmitted = func(string) { t.read() }
	t.preview = widget.NewLabel("")
	t.preview.Wrapping = fyne.TextWrapBreak
	t.preview.TextStyle = fyne.TextStyle{Monospace: true}
	t.refusal = widget.NewLabel("")
	t.refusal.Wrapping = fyne.TextWrapWord
	t.readBtn = newButton("Read", theme.VisibilityIcon(), t.read)
	t.attachBtn = newButton("Attach", theme.ContentAddIcon(), t.attach)
	t.attachBtn.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem("memory id", t.id))
	t.updatePreview()
	byID := container.NewVBox(form, t.preview, t.refusal, container.NewHBox(t.readBtn, t.attachBtn))
	scroll := container.NewVScroll(ringRoom(container.NewVBox(byID, widget.NewSeparator(), t.search.buildUI())))
	t.search.scroll = scroll
	return scroll
}

// setConn looks up c's id template.
func (t *byIDTab) setConn(c *hostcore.Conn) {
	t.conn, t.tpl = c, nil
	t.search.setConn(c)
	if c == nil {
		t.find.stop()
		t.updatePreview()
		return
	}
	ctx, gen := t.find.start(t.sh.ctx)
	t.updatePreview() // says the template is being looked up, refuses nothing yet
	run(t.sh.work, ctx, c.IDTemplate, func(tpl hostcore.Template, err error) {
		if !t.find.current(gen) {
			return
		}
		t.find.finish(gen)
		if err == nil {
			t.tpl = &tpl
		}
		t.updatePreview()
	})
}

// uri is the memory's URI, or why there is none.
func (t *byIDTab) uri() (string, error) {
	if t.tpl == nil {
		return "", hostcore.NewUsageError("this server advertises no template with a single {id} variable")
	}
	return expand.URI(t.tpl.URITemplate, map[string]string{"id": strings.TrimSpace(t.id.Text)})
}

func (t *byIDTab) updatePreview() {
	if t.tpl == nil && t.find.running() {
		t.preview.TextStyle.Monospace = false
		t.preview.SetText("Looking up the memory template of " + t.conn.Server.Name + "…")
		t.refusal.Hide()
		setEnabled(t.readBtn, false)
		setEnabled(t.attachBtn, false)
		return
	}
	uri, err := t.uri()
	t.preview.TextStyle.Monospace = true
	switch {
	case err == nil:
		t.preview.SetText("→ " + uri)
	case t.tpl != nil:
		t.preview.SetText("→ " + t.tpl.URITemplate)
	default:
		t.preview.SetText("")
	}
	showRefusal(t.refusal, err, t.tpl != nil && strings.TrimSpace(t.id.Text) == "")
	setEnabled(t.readBtn, err == nil)
	setEnabled(t.attachBtn, err == nil)
}

func (t *byIDTab) read() {
	uri, err := t.uri()
	t.sh.readExpanded(t.conn, t.tpl, uri, err)
}

func (t *byIDTab) attach() {
	if _, err := t.uri(); err != nil {
		t.sh.fail(err)
		return
	}
	cv, id := t.sh.cv, strings.TrimSpace(t.id.Text)
	t.sh.attach("by id", func(ctx context.Context, conv int64, c *hostcore.Conn) (hostcore.Attachment, error) {
		return cv.AttachID(ctx, conv, c, id)
	})
}
