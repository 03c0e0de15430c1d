package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// shortcuts are the keys the Help menu lists, in the order a person meets
// them. Keep them in step with menu.go and keys.go.
var shortcuts = []struct{ keys, what string }{
	{"Tab / Shift+Tab", "Move to the next / previous control; the one with the focus has a ring around it"},
	{"Enter / Space", "On a button, a check box, an option or a server's name: press it"},
	{"Ctrl+K", "Find resources: the search field of the picker"},
	{"Down", "From a search field (resources, memories, the console's filter) or a template field into the results or suggestions; Up and Down move through them"},
	{"Enter", "In a field: read what it names, or search. On a suggestion or a result: read it"},
	{"Ctrl+Enter", "Attach the chosen item to the conversation"},
	{"Escape", "Cancel the read in progress"},
	{"Ctrl+C", "On a value of the inspector's Metadata: copy it (a right click offers Copy too)"},
	{"Ctrl+T", "Open the picker's Tools tab: the chosen server's tools, a form to call one"},
	{"Ctrl+F", "Find in the body the inspector (or the console's message) shows; Enter / Shift+Enter: the next / previous match; Escape: close the search"},
	{"Arrows, Page Up/Down, Home/End", "In a body that has the keyboard (click it or Tab to it): scroll it; Ctrl+A, Ctrl+C: select all of a text body, copy the selection"},
	{"Enter / Escape", "In a dialog: confirm / close it"},
	{"Ctrl+Shift+L", "Open the console (JSON-RPC history and server log)"},
	{"In a conversation", "Enter makes a new line, Ctrl+Enter sends, Tab moves on to Send"},
	{"Ctrl+Shift+U", "Open the Subscriptions view"},
}

// helpMenu lists the keyboard shortcuts.
func (a *App) helpMenu() *fyne.Menu {
	return fyne.NewMenu("Help", fyne.NewMenuItem("Keyboard shortcuts", a.showShortcuts))
}

// showShortcuts shows the keyboard shortcuts in a dialog.
func (a *App) showShortcuts() {
	form := container.New(layout.NewFormLayout())
	for _, s := range shortcuts {
		what := widget.NewLabel(s.what)
		what.Wrapping = fyne.TextWrapWord
		form.Add(widget.NewLabelWithStyle(s.keys, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
		form.Add(what)
	}
	d := newDialog("Keyboard shortcuts", "Close", form, a.sh.win)
	d.Resize(fyne.NewSize(560, 0))
	closeOnEscape(a.sh.win, d, d.Hide)
	d.Show()
}
