package ui

import (
	"context"
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/config"
)

// errNoInput is a prompt the person dismissed.
var errNoInput = errors.New("no value given")

// PromptInput asks the person, in a dialog, for the value of a VS Code
// input that server needs to start (hostcore.HostOptions.PromptInput) and
// waits for the answer or for ctx to end, which closes the dialog (no one
// waits for the answer any more). The host calls it from the goroutine that
// connects, never from the main goroutine, which it would block.
func (a *App) PromptInput(ctx context.Context, server string, in config.Input) (string, error) {
	type answer struct {
		value string
		ok    bool
	}
	got := make(chan answer, 1)
	shown := make(chan dialog.Dialog, 1)
	deliver(func() {
		e := newKeyEntry()
		e.Password = in.Password
		label := in.Description
		if label == "" {
			label = in.ID
		}
		d := newFormDialog(server+" needs "+in.ID, "OK", "Cancel",
			[]*widget.FormItem{widget.NewFormItem(label, e)},
			func(ok bool) { got <- answer{e.Text, ok} }, a.sh.win)
		d.Resize(fyne.NewSize(480, 0))
		closeOnEscape(a.sh.win, d, d.Submit, e) // Enter answers, Escape declines
		d.Show()
		a.sh.win.Canvas().Focus(e)
		shown <- d
	})
	select {
	case ans := <-got:
		if !ans.ok {
			return "", errNoInput
		}
		return ans.value, nil
	case <-ctx.Done():
		go func() { // once the dialog is up, take it down
			d := <-shown
			deliver(d.Hide)
		}()
		return "", ctx.Err()
	}
}
