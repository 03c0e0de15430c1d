package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fyne's dialogs, with buttons that draw the focus ring: the ones
// dialog.NewCustom, NewForm, ShowConfirm and ShowError make are plain
// widget.Buttons, whose focus is a faint tint. Use these instead.

// newDialog is dialog.NewCustom: content and one button, dismiss, that
// closes it.
func newDialog(title, dismiss string, content fyne.CanvasObject, win fyne.Window) *dialog.CustomDialog {
	d := dialog.NewCustomWithoutButtons(title, content, win)
	d.SetButtons([]fyne.CanvasObject{newButton(dismiss, nil, d.Hide)})
	return d
}

// formDialog is dialog.NewForm's dialog: the items in a form, confirm
// (off while an item fails its validation) and dismiss, and callback told
// which closed it.
type formDialog struct {
	*dialog.CustomDialog
	confirm   *button
	submitted bool
}

// newFormDialog is dialog.NewForm.
func newFormDialog(title, confirm, dismiss string, items []*widget.FormItem, callback func(bool), win fyne.Window) *formDialog {
	form := widget.NewForm(items...)
	d := &formDialog{CustomDialog: dialog.NewCustomWithoutButtons(title, form, win)}
	d.confirm = newButton(confirm, theme.ConfirmIcon(), d.Submit)
	d.confirm.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{newButton(dismiss, theme.CancelIcon(), d.Hide), d.confirm})
	valid := func(err error) {
		if err != nil {
			d.confirm.Disable()
		} else {
			d.confirm.Enable()
		}
	}
	valid(form.Validate())
	form.SetOnValidationChanged(valid)
	d.SetOnClosed(func() {
		if callback != nil {
			callback(d.submitted)
		}
	})
	return d
}

// Submit closes the dialog as confirm does, unless confirm is off.
func (d *formDialog) Submit() {
	if d.confirm.Disabled() {
		return
	}
	d.submitted = true
	d.Hide()
}

// newConfirmDialog is dialog.NewCustomConfirm: content, dismiss and
// confirm, and callback told whether confirm closed it.
func newConfirmDialog(title, confirm, dismiss string, content fyne.CanvasObject, callback func(bool), win fyne.Window) *dialog.CustomDialog {
	d := dialog.NewCustomWithoutButtons(title, content, win)
	yes := false
	ok := newButton(confirm, theme.ConfirmIcon(), func() { yes = true; d.Hide() })
	ok.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{newButton(dismiss, theme.CancelIcon(), d.Hide), ok})
	d.SetOnClosed(func() { callback(yes) })
	return d
}

// showConfirm is dialog.ShowConfirm: message, and No and Yes.
func showConfirm(title, message string, callback func(bool), win fyne.Window) {
	text := widget.NewLabel(message)
	text.Wrapping = fyne.TextWrapWord
	text.Alignment = fyne.TextAlignCenter
	d := dialog.NewCustomWithoutButtons(title, text, win)
	yes := false
	ok := newButton("Yes", theme.ConfirmIcon(), func() { yes = true; d.Hide() })
	ok.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{newButton("No", theme.CancelIcon(), d.Hide), ok})
	d.SetOnClosed(func() { callback(yes) })
	d.Resize(fyne.NewSize(420, 0))
	closeOnEscape(win, d, nil)
	d.Show()
}

// showError is dialog.ShowError: the error's text, its first letter
// upper case, and OK.
func showError(err error, win fyne.Window) {
	text := widget.NewLabel(capitalized(err.Error()))
	text.Wrapping = fyne.TextWrapWord
	d := newDialog("Error", "OK", container.NewBorder(nil, nil, widget.NewIcon(theme.ErrorIcon()), nil, text), win)
	d.Resize(fyne.NewSize(420, 0))
	closeOnEscape(win, d, d.Hide)
	d.Show()
}
