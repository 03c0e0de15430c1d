package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Keyboard shortcuts. They sit on the main menu because the window gives a
// menu's shortcuts precedence over the focused widget: Ctrl+Enter attaches
// even while the cursor is in a field, where a canvas shortcut would be
// swallowed by the entry.
var (
	shortcutFind   = &desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutAttach = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutTools  = &desktop.CustomShortcut{KeyName: fyne.KeyT, Modifier: fyne.KeyModifierShortcutDefault}
)

// menu is the main menu: servers, the conversation, and the picker's
// keyboard shortcuts (Ctrl+K, Ctrl+Enter; Enter in a field reads).
func (a *App) menu() *fyne.MainMenu {
	find := fyne.NewMenuItem("Find resources", a.picker.focusSearch)
	find.Shortcut = shortcutFind
	read := fyne.NewMenuItem("Read the chosen item (Enter)", a.picker.readCurrent)
	attach := fyne.NewMenuItem("Attach the chosen item", a.picker.attachCurrent)
	attach.Shortcut = shortcutAttach
	tools := fyne.NewMenuItem("Tools of the server", a.picker.focusTools)
	tools.Shortcut = shortcutTools
	findBody := fyne.NewMenuItem("Find in the body", func() { a.inspector.bodyViewer().ShowFind() })
	findBody.Shortcut = shortcutFindInBody
	return fyne.NewMainMenu(
		fyne.NewMenu("Servers",
			fyne.NewMenuItem("Add a server…", a.servers.add),
			fyne.NewMenuItem("Import a Claude Desktop config…", func() { a.servers.chooseImport("claude-desktop") }),
			fyne.NewMenuItem("Import a VS Code mcp.json…", func() { a.servers.chooseImport("vscode") })),
		fyne.NewMenu("Conversation",
			fyne.NewMenuItem("New…", a.conversations.askCreate),
			fyne.NewMenuItem("Rename…", a.conversations.askRename),
			fyne.NewMenuItem("Open the chat with the model…", a.attachments.preview.showSend),
			fyne.NewMenuItem("Show what the model is sent…", a.attachments.preview.showSent),
			fyne.NewMenuItem("Model providers…", a.attachments.preview.chat.editor.show)),
		fyne.NewMenu("Picker", find, read, attach, tools, fyne.NewMenuItemSeparator(), findBody),
		fyne.NewMenu("Lab", fyne.NewMenuItem("Compare host and tool…", a.OpenCompare)),
		a.viewMenu(),
		a.helpMenu(),
	)
}
