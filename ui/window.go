// Package ui holds Attaché's Fyne screens. It talks to hostcore only: no SQL,
// no protocol details, no os.Args.
package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// NewMainWindow builds the main window. For now it is a placeholder screen
// that names what is coming; the real screens arrive with the GUI issue.
func NewMainWindow(a fyne.App) fyne.Window {
	w := a.NewWindow("Attaché")
	w.SetContent(welcome())
	w.Resize(fyne.NewSize(960, 640))
	return w
}

func welcome() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Attaché", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	body := widget.NewLabelWithStyle(
		"An MCP host that lets you attach resources, above all threengram memories,\n"+
			"to a model's context. The picker, the read inspector and the attachments panel\n"+
			"are on their way.",
		fyne.TextAlignCenter, fyne.TextStyle{})
	return container.NewCenter(container.NewVBox(title, body))
}
