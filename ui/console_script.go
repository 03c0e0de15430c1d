package ui

import "fmt"

// ShowConsole opens the tester's console on the connection in use, as
// View › Console does.
func (a *App) ShowConsole() { a.console.show() }

// ConsoleFilter types q into the console's filter.
func (a *App) ConsoleFilter(q string) { a.console.filter.SetText(q) }

// ConsoleSelect chooses the last message the filter shows whose method
// is method (a response, once its request was answered), as a click on it
// does.
func (a *App) ConsoleSelect(method string) error {
	c := a.console
	for i := len(c.shown) - 1; i >= 0; i-- {
		if c.entries[c.shown[i]].Method == method {
			c.list.Select(i)
			c.list.ScrollTo(i)
			return nil
		}
	}
	return fmt.Errorf("the console shows no message of %s", method)
}

// ConsoleTab shows the console's history (0) or its server log (1).
func (a *App) ConsoleTab(i int) { a.console.tabs.SelectIndex(i) }

// ShowSettings opens the settings, as View › Settings does.
func (a *App) ShowSettings() { a.settings.show() }

// ShowShortcuts opens the list of keyboard shortcuts, as Help does.
func (a *App) ShowShortcuts() { a.showShortcuts() }

// SetTheme chooses the theme in the settings, as a tap on its choice does:
// it applies at once, to every open window, and is remembered.
func (a *App) SetTheme(choice ThemeChoice) { a.settings.setTheme(choice) }

// CloseConsole closes the console's window, if it is open.
func (a *App) CloseConsole() {
	if w := a.console.win; w != nil {
		w.Close()
	}
}
