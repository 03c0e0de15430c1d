package ui

import (
	"context"
	"fmt"
	"maps"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/expand"
)

// defaultCompleteDelay is how long typing must pause before completion is
// asked for.
const defaultCompleteDelay = 200 * time.Millisecond

// templateWorkbench fills in a resource template: one field per variable,
// the server's completion suggestions for the field being typed in (asked
// once typing pauses), a live preview of the expanded URI or the reason it
// is refused, and Read and Attach.
type templateWorkbench struct {
	sh     *shell
	loaded func(n int)

	conn      *hostcore.Conn
	templates []hostcore.Template
	caps      hostcore.Capabilities // as declared, when the server lists no templates
	tpl       *hostcore.Template
	vars      []string
	fields    map[string]*keyEntry
	list      job
	complete  *debounced

	choose      *selectBox
	form        *widget.Form
	formBox     *fyne.Container // holds form: each template gets a new one
	preview     *widget.Label
	refusal     *widget.Label
	empty       *widget.Label // why there is nothing to fill in
	readBtn     *button
	attachBtn   *button
	suggestHead *widget.Label
	suggestVar  string
	suggestions []string
	suggestList *keyList
	// metas are the memory lines of suggestions that expand to a
	// threengram memory, by URI, read through the cache as rows show.
	metas map[string]string
}

func newTemplateWorkbench(sh *shell, loaded func(n int)) *templateWorkbench {
	delay := sh.opts.CompleteDelay
	if delay <= 0 {
		delay = defaultCompleteDelay
	}
	return &templateWorkbench{sh: sh, loaded: loaded, fields: map[string]*keyEntry{},
		complete: &debounced{d: hostcore.Debouncer{Delay: delay}, tr: sh.work}}
}

func (w *templateWorkbench) buildUI() fyne.CanvasObject {
	w.choose = newSelect(nil, func(string) { w.pick(w.choose.SelectedIndex()) })
	w.choose.PlaceHolder = "(no templates)"
	w.form = widget.NewForm()
	w.formBox = container.NewStack(w.form)
	w.preview = widget.NewLabel("")
	w.preview.Wrapping = fyne.TextWrapBreak
	w.preview.TextStyle = fyne.TextStyle{Monospace: true}
	w.refusal = widget.NewLabel("")
	w.refusal.Wrapping = fyne.TextWrapWord
	w.empty = widget.NewLabel("")
	w.empty.Wrapping = fyne.TextWrapWord
	w.empty.Hide()
	w.readBtn = newButton("Read", theme.VisibilityIcon(), w.read)
	w.attachBtn = newButton("Attach", theme.ContentAddIcon(), w.attach)
	w.attachBtn.Importance = widget.HighImportance
	w.suggestHead = widget.NewLabel("Suggestions")
	w.suggestHead.Truncation = fyne.TextTruncateEllipsis
	w.suggestHead.SizeName = theme.SizeNameCaptionText
	w.suggestList = newKeyList(func() int { return len(w.suggestions) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.TextStyle.Monospace = true
			l.Truncation = fyne.TextTruncateEllipsis
			meta := caption("")
			meta.Wrapping, meta.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
			return container.New(rowsLayout{}, l, meta)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container).Objects
			row[0].(*widget.Label).SetText(w.suggestions[id])
			row[1].(*widget.Label).SetText(w.suggestionMeta(w.suggestions[id]))
		})
	w.suggestList.OnSelected = w.takeSuggestion
	w.suggestList.onEnter = w.read // Enter on a suggestion takes it, then reads
	left := container.NewVBox(w.choose, w.formBox, w.empty, w.preview, w.refusal,
		container.NewHBox(w.readBtn, w.attachBtn))
	right := container.NewBorder(w.suggestHead, nil, nil, nil, w.suggestList)
	split := container.NewHSplit(container.NewVScroll(ringRoom(left)), right)
	split.Offset = 0.58
	w.pick(-1)
	return split
}

// setConn lists c's templates.
func (w *templateWorkbench) setConn(c *hostcore.Conn) {
	w.conn = c
	w.metas = map[string]string{} // another account may not see the same memories
	w.templates = nil
	w.choose.SetOptions(nil)
	w.choose.ClearSelected()
	if c == nil {
		w.list.stop()
		return
	}
	ctx, gen := w.list.start(w.sh.listing())
	w.caps = hostcore.Capabilities{Resources: true}
	w.pick(-1) // the last account's fields go; showEmpty says the list is on its way
	run(w.sh.work, ctx, func(ctx context.Context) (templateListing, error) {
		l := templateListing{caps: hostcore.Capabilities{Resources: true}}
		for t, err := range c.Templates(ctx, nil) {
			if err != nil {
				return l, err
			}
			l.templates = append(l.templates, t)
		}
		if len(l.templates) > 0 {
			return l, nil
		}
		caps, err := c.Capabilities(ctx) // connected already: no request
		if err == nil {
			l.caps = caps
		}
		return l, err
	}, func(l templateListing, err error) {
		if !w.list.current(gen) {
			return
		}
		w.list.finish(gen)
		w.caps = l.caps
		w.showTemplates(l.templates, err)
	})
}

// templateListing is a server's templates, and what it declares.
type templateListing struct {
	templates []hostcore.Template
	caps      hostcore.Capabilities
}

func (w *templateWorkbench) showTemplates(ts []hostcore.Template, err error) {
	if err != nil {
		w.sh.fail(err)
	}
	w.templates = ts
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.DisplayName() + "  " + t.URITemplate
	}
	w.choose.SetOptions(names)
	if len(ts) > 0 {
		w.choose.SetSelectedIndex(0) // calls pick
	} else {
		w.pick(-1)
	}
	w.loaded(len(ts))
}

// pick shows the fields of template i (-1: none).
func (w *templateWorkbench) pick(i int) {
	w.tpl, w.vars = nil, nil
	w.fields = map[string]*keyEntry{}
	// A new form for each template: a Form already drawn keeps the rows it
	// drew when its items are replaced (Fyne 2.7), so the old template's
	// field stayed on screen, dead, after a switch.
	w.form = widget.NewForm()
	w.formBox.Objects = []fyne.CanvasObject{w.form}
	w.setSuggestions("", nil, "")
	if i >= 0 && i < len(w.templates) {
		t := w.templates[i]
		w.tpl = &t
		vars, err := expand.Variables(t.URITemplate)
		if err != nil {
			w.sh.fail(err)
		}
		w.vars = vars
		for _, v := range vars {
			w.form.Append(v, w.newField(v))
		}
	}
	w.formBox.Refresh()
	w.updatePreview()
	if len(w.vars) > 0 {
		w.suggest(w.vars[0]) // what the first field could hold, before any typing
	}
}

// newField is the entry of one variable: typing updates the preview at
// once and asks for completions when typing pauses; Enter reads.
func (w *templateWorkbench) newField(name string) *keyEntry {
	e := newKeyEntry()
	e.onDown = func() { focusList(w.sh.win, w.suggestList, len(w.suggestions)) }
	e.SetPlaceHolder(name)
	e.OnChanged = func(string) {
		w.updatePreview()
		w.suggest(name)
	}
	e.OnSubmitted = func(string) { w.read() }
	w.fields[name] = e
	return e
}

// values are the fields' contents, by variable.
func (w *templateWorkbench) values() map[string]string {
	out := map[string]string{}
	for name, e := range w.fields {
		if e.Text != "" {
			out[name] = e.Text
		}
	}
	return out
}

// expanded is the URI the fields make, or why hostcore.Expand refuses it.
func (w *templateWorkbench) expanded() (string, error) {
	if w.tpl == nil {
		return "", hostcore.NewUsageError("choose a template")
	}
	return expand.URI(w.tpl.URITemplate, w.values())
}

// updatePreview shows the URI the fields expand to, or the template and
// the reason hostcore.Expand refuses the values: gently while a field is
// still empty, as a warning once a value is refused.
func (w *templateWorkbench) updatePreview() {
	uri, err := w.expanded()
	if w.tpl == nil {
		w.showEmpty()
		return
	}
	w.empty.Hide()
	w.preview.Show()
	switch {
	case err == nil:
		w.preview.SetText("→ " + uri)
	default:
		w.preview.SetText("→ " + w.tpl.URITemplate)
	}
	showRefusal(w.refusal, err, len(w.values()) < len(w.vars))
	setEnabled(w.readBtn, err == nil)
	setEnabled(w.attachBtn, err == nil)
}

// showEmpty says why there is nothing to fill in: the templates are still
// being listed, the server lists none, or it offers no resources at all.
func (w *templateWorkbench) showEmpty() {
	msg := "This server offers no templates."
	switch {
	case w.conn != nil && w.list.running():
		msg = "Listing the templates of " + w.conn.Server.Name + " as " + w.conn.Account.Name + "…"
	case w.conn != nil && !w.caps.Offers(hostcore.FeatureTemplates):
		msg = notOffered(w.conn, w.caps)
	}
	w.empty.SetText(msg)
	w.empty.Show()
	w.preview.Hide()
	w.refusal.Hide()
	setEnabled(w.readBtn, false)
	setEnabled(w.attachBtn, false)
}

// showRefusal puts why a URI cannot be made under its preview; incomplete
// says some value is still to be typed, which is no fault of the person's.
func showRefusal(l *widget.Label, err error, incomplete bool) {
	if err == nil {
		l.Hide()
		return
	}
	_, msg, _, _ := explain(err)
	l.Importance, l.TextStyle.Italic = widget.WarningImportance, false
	text := "Refused: " + msg
	if incomplete {
		l.Importance, l.TextStyle.Italic = widget.MediumImportance, true
		text = "Not yet: " + msg
	}
	l.SetText(text)
	l.Show()
}

// suggest asks, once typing pauses, for completions of variable name given
// what its field holds and the values already chosen for the others.
func (w *templateWorkbench) suggest(name string) {
	if w.tpl == nil || w.conn == nil {
		return
	}
	c, tpl, prefix := w.conn, w.tpl.URITemplate, w.fields[name].Text
	chosen := w.values()
	delete(chosen, name)
	w.complete.Do(func() {
		run(w.sh.work, w.sh.ctx, func(ctx context.Context) (completionAnswer, error) {
			got, err := c.Complete(ctx, tpl, name, prefix, chosen)
			a := completionAnswer{got, true}
			if err == nil && len(got.Values) == 0 { // connected already: no request
				ok, oerr := c.Offers(ctx, hostcore.FeatureCompletions)
				a.offered = ok || oerr != nil
			}
			return a, err
		}, func(got completionAnswer, err error) {
			if w.tpl == nil || w.tpl.URITemplate != tpl || w.fields[name] == nil || w.fields[name].Text != prefix || !maps.Equal(chosenOthers(w.values(), name), chosen) {
				return // the person typed on: a newer request is coming
			}
			w.setSuggestions(name, got.Values, completionNote(got, err))
		})
	})
}

func chosenOthers(values map[string]string, name string) map[string]string {
	delete(values, name)
	return values
}

// completionAnswer is the server's suggestions, and whether it offers
// completion at all.
type completionAnswer struct {
	hostcore.Completion
	offered bool
}

// completionNote heads the suggestions: how many, and whether the server
// has more.
func completionNote(c completionAnswer, err error) string {
	switch {
	case err != nil:
		return "no suggestions: " + oneLine(err)
	case !c.offered:
		return "none: the server offers no completion"
	case len(c.Values) == 0:
		return "none"
	case c.HasMore || c.Total > len(c.Values):
		return fmt.Sprintf("first %d; type to narrow", len(c.Values))
	}
	return fmt.Sprintf("%d", len(c.Values))
}

func (w *templateWorkbench) setSuggestions(name string, values []string, note string) {
	w.suggestVar, w.suggestions = name, values
	w.suggestHead.SetText("Suggestions")
	if name != "" {
		w.suggestHead.SetText(name + " suggestions: " + note)
	}
	w.suggestList.UnselectAll()
	w.suggestList.Refresh()
	w.suggestList.ScrollToTop()
}

// suggestionMeta is the memory line of a suggestion whose URI is a
// threengram memory ("fact · onboarding · anvil-api · 2025-01-19"), read
// through the cache the first time its row shows; "" until it is known,
// and for other suggestions.
func (w *templateWorkbench) suggestionMeta(value string) string {
	if w.tpl == nil || w.conn == nil || len(w.vars) != 1 || value == "" {
		return ""
	}
	uri, err := expand.URI(w.tpl.URITemplate, map[string]string{w.vars[0]: value})
	if err != nil || hostcore.MemoryID(uri) == "" {
		return ""
	}
	if line, ok := w.metas[uri]; ok {
		return line
	}
	w.metas[uri] = "" // asked once
	c, metas := w.conn, w.metas
	run(w.sh.work, w.sh.ctx, func(ctx context.Context) (string, error) {
		m, ok, err := c.MemoryMeta(ctx, uri)
		if err != nil || !ok {
			return "", err
		}
		return m.Line(), nil
	}, func(line string, err error) {
		if err != nil || line == "" || w.conn != c {
			return
		}
		metas[uri] = line
		w.suggestList.Refresh()
	})
	return ""
}

// takeSuggestion puts a suggestion in its field.
func (w *templateWorkbench) takeSuggestion(id widget.ListItemID) {
	if id >= len(w.suggestions) || w.fields[w.suggestVar] == nil {
		return
	}
	e := w.fields[w.suggestVar]
	e.SetText(w.suggestions[id])
	w.sh.win.Canvas().Focus(e)
}

func (w *templateWorkbench) read() {
	uri, err := w.expanded()
	w.sh.readExpanded(w.conn, w.tpl, uri, err)
}

func (w *templateWorkbench) attach() {
	if _, err := w.expanded(); err != nil {
		w.sh.fail(err)
		return
	}
	cv, t, values := w.sh.cv, *w.tpl, w.values()
	w.sh.attach("from the template "+t.URITemplate, func(ctx context.Context, conv int64, c *hostcore.Conn) (hostcore.Attachment, error) {
		return cv.AttachTemplate(ctx, conv, c, t, values)
	})
}

// setEnabled enables or disables a button.
func setEnabled(b *button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}
