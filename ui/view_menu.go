package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// shortcutConsole opens the tester's console.
var shortcutConsole = &desktop.CustomShortcut{KeyName: fyne.KeyL, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// shortcutSubscriptions opens the Subscriptions view.
var shortcutSubscriptions = &desktop.CustomShortcut{KeyName: fyne.KeyU, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// viewMenu opens the console, the subscriptions and the settings.
func (a *App) viewMenu() *fyne.Menu {
	console := fyne.NewMenuItem("Console (JSON-RPC and server log)", a.console.show)
	console.Shortcut = shortcutConsole
	subs := fyne.NewMenuItem("Subscriptions", a.subscriptions.show)
	subs.Shortcut = shortcutSubscriptions
	return fyne.NewMenu("View", console, subs, fyne.NewMenuItem("Settings…", a.settings.show))
}
