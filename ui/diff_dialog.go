package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/attache/attache/hostcore/pack"
)

// showDiffDialog shows a unified diff in the body viewer (searchable,
// wrapped or not, copyable), in a dialog over win.
func showDiffDialog(win fyne.Window, title, diff string) {
	v := newBodyViewer(nil)
	v.SetBody(pack.Content{URI: title, MIMEType: "text/x-diff", Text: diff})
	d := dialog.NewCustom(title, "Close", v, win)
	d.Resize(win.Canvas().Size().Subtract(fyne.NewSize(160, 160)))
	closeOnEscape(win, d, d.Hide)
	d.Show()
}
