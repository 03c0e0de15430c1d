package ui

import (
	"context"
	"fmt"

	"github.com/attache/attache/hostcore/form"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
)

// Elicit shows the form a server asks the person to fill (form
// elicitation, hostcore.HostOptions.Elicit) and waits for Accept, Decline
// or Cancel, or for ctx to end, which closes the dialog. The form is built
// from the requested schema, each field filled with its default; Accept
// sends the values once every field holds one that fits, and says which
// does not otherwise. Closing the dialog is Cancel. The host calls it from
// a request's goroutine, never from the main goroutine.
func (a *App) Elicit(ctx context.Context, req hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
	got := make(chan hostcore.ElicitAnswer, 1)
	shown := make(chan dialog.Dialog, 1)
	deliver(func() {
		f := newElicitForm(req)
		var d *dialog.CustomDialog
		answered := false
		answer := func(ans hostcore.ElicitAnswer) {
			if answered {
				return
			}
			answered = true
			got <- ans
			d.Hide()
		}
		accept := newButton("Accept", theme.ConfirmIcon(), func() {
			if ans, err := f.answer(); err != nil {
				f.problem.SetText(err.Error())
				f.problem.Show()
			} else {
				answer(ans)
			}
		})
		accept.Importance = widget.HighImportance
		decline := newButton("Decline", nil, func() { answer(hostcore.ElicitAnswer{Action: hostcore.ElicitDecline}) })
		cancel := newButton("Cancel", nil, func() { answer(hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}) })
		d = dialog.NewCustomWithoutButtons(req.Server+" asks", f.content, a.sh.win)
		d.SetButtons([]fyne.CanvasObject{cancel, decline, accept})
		d.SetOnClosed(func() { answer(hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}) })
		d.Resize(fyne.NewSize(520, 0))
		closeOnEscape(a.sh.win, d, accept.OnTapped, f.focusables...)
		d.Show()
		if len(f.focusables) > 0 {
			a.sh.win.Canvas().Focus(f.focusables[0].(fyne.Focusable))
		}
		shown <- d
	})
	select {
	case ans := <-got:
		return ans, nil
	case <-ctx.Done():
		go func() { // once the dialog is up, take it down
			d := <-shown
			deliver(d.Hide)
		}()
		return hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}, ctx.Err()
	}
}

// elicitForm is the dialog's content: the server's message, a widget per
// field with its default, and a line for what does not fit.
type elicitForm struct {
	req        hostcore.ElicitRequest
	content    fyne.CanvasObject
	values     []func() (any, bool, error) // per field: the value, whether set, or why it does not fit
	problem    *widget.Label
	focusables []fyne.CanvasObject
}

func newElicitForm(req hostcore.ElicitRequest) *elicitForm {
	f := &elicitForm{req: req, problem: widget.NewLabel("")}
	f.problem.Importance = widget.DangerImportance
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Hide()
	message := widget.NewLabel(req.Message)
	message.Wrapping = fyne.TextWrapWord
	items := container.New(layout.NewFormLayout())
	for _, field := range req.Fields {
		w, value := fieldWidget(field)
		f.values = append(f.values, value)
		if _, ok := w.(fyne.Focusable); ok {
			f.focusables = append(f.focusables, w)
		}
		label := field.Label()
		if field.Required {
			label += " *"
		}
		l := widget.NewLabel(label)
		l.TextStyle.Bold = true
		col := container.NewVBox(w)
		if field.Description != "" {
			hint := widget.NewLabel(field.Description)
			hint.Wrapping, hint.Importance = fyne.TextWrapWord, widget.LowImportance
			col.Add(hint)
		}
		items.Add(l)
		items.Add(col)
	}
	parts := []fyne.CanvasObject{message}
	if req.Via != "" {
		via := widget.NewLabel("while " + req.Via)
		via.Importance = widget.LowImportance
		parts = append(parts, via)
	}
	parts = append(parts, widget.NewSeparator(), items, f.problem)
	f.content = container.NewVBox(parts...)
	return f
}

// answer is the accepted form, or why a field does not fit.
func (f *elicitForm) answer() (hostcore.ElicitAnswer, error) {
	content := map[string]any{}
	for i, field := range f.req.Fields {
		v, set, err := f.values[i]()
		switch {
		case err != nil:
			return hostcore.ElicitAnswer{}, err
		case !set && field.Required:
			return hostcore.ElicitAnswer{}, fmt.Errorf("%s is required", field.Label())
		case set:
			content[field.Name] = v
		}
	}
	return hostcore.ElicitAnswer{Action: hostcore.ElicitAccept, Content: content}, nil
}

// fieldWidget is the widget for one field, filled with its default, and
// the function that reads it.
func fieldWidget(f form.Field) (fyne.CanvasObject, func() (any, bool, error)) {
	switch {
	case f.Type == "boolean":
		c := newCheck("", nil)
		c.Checked = f.Default == true
		return c, func() (any, bool, error) { return c.Checked, true, nil }
	case f.Type == "array":
		labels, byLabel := optionLabels(f)
		g := widget.NewCheckGroup(labels, nil)
		if picked, ok := f.Default.([]string); ok {
			for _, v := range picked {
				g.Selected = append(g.Selected, labelOf(f, v))
			}
		}
		return g, func() (any, bool, error) {
			picked := []string{}
			for _, l := range g.Selected {
				picked = append(picked, byLabel[l])
			}
			v, err := f.Check(picked)
			return v, true, err
		}
	case len(f.Options) > 0:
		labels, byLabel := optionLabels(f)
		s := newSelect(labels, nil)
		if v, ok := f.Default.(string); ok {
			s.Selected = labelOf(f, v)
		}
		return s, func() (any, bool, error) {
			if s.Selected == "" {
				return nil, false, nil
			}
			v, err := f.Check(byLabel[s.Selected])
			return v, true, err
		}
	}
	e := newKeyEntry()
	e.SetText(f.FormatValue(f.Default))
	if f.Format != "" {
		e.SetPlaceHolder(f.Format)
	}
	return e, func() (any, bool, error) {
		if e.Text == "" { // left empty: left out (a required field says so)
			return nil, false, nil
		}
		v, err := f.Parse(e.Text)
		return v, true, err
	}
}

// optionLabels are an enum's labels, and the value of each.
func optionLabels(f form.Field) ([]string, map[string]string) {
	labels := make([]string, len(f.Options))
	byLabel := make(map[string]string, len(f.Options))
	for i, o := range f.Options {
		labels[i] = o.Label()
		byLabel[o.Label()] = o.Value
	}
	return labels, byLabel
}

// labelOf is the label of an enum's value.
func labelOf(f form.Field, value string) string {
	for _, o := range f.Options {
		if o.Value == value {
			return o.Label()
		}
	}
	return value
}
