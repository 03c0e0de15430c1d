package ui

import "fyne.io/fyne/v2"

// ResizeWindow resizes the main window, as a person dragging its corner.
func (a *App) ResizeWindow(width, height float32) { a.sh.win.Resize(fyne.NewSize(width, height)) }

// FirstSuggestion is the first value the template workbench suggests, ""
// when it suggests none.
func (a *App) FirstSuggestion() string {
	if w := a.picker.templates; len(w.suggestions) > 0 {
		return w.suggestions[0]
	}
	return ""
}
