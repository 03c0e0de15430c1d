package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/internal/modeltest"
)

// pressTab is Tab on c as Fyne's window handles it: a focused widget that
// accepts Tab gets it as a key, else the focus moves on.
func pressTab(c fyne.Canvas) {
	if t, ok := c.Focused().(fyne.Tabbable); ok && t.AcceptsTab() {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
		return
	}
	c.FocusNext()
}

// pressShortcut is a key with Ctrl on c as Fyne's window handles it (a
// window without a main menu): the focused widget gets it as a shortcut,
// if it takes shortcuts, else the canvas does.
func pressShortcut(c fyne.Canvas, key fyne.KeyName) {
	s := &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	c.(fyne.Shortcutable).TypedShortcut(s)
}

// In the conversation's window Enter makes a new line and Ctrl+Enter
// sends, from the message field and from anywhere else in the window.
func TestChatCtrlEnterSends(t *testing.T) {
	h, c, _, _ := chatHarness(t, modeltest.Say(modeltest.Reply{Text: "first answer"}),
		modeltest.Say(modeltest.Reply{Text: "second answer"}))
	cv := c.win.Canvas()
	h.do(func() {
		cv.Focus(c.entry)
		test.Type(c.entry, "two")
		c.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		test.Type(c.entry, "lines")
	})
	if got := h.transcript(c); strings.Contains(got, "You:") {
		t.Fatalf("Enter sent the message:\n%s", got)
	}
	h.do(func() {
		if c.entry.Text != "two\nlines" {
			t.Errorf("after Enter the field holds %q, want a new line", c.entry.Text)
		}
		pressShortcut(cv, fyne.KeyReturn)
	})
	h.waitText(c, "You: two\nlines")
	h.waitText(c, "first answer")
	h.waitTurnEnd(c)
	h.do(func() {
		test.Type(c.entry, "again")
		cv.Focus(c.send) // the focus off the field
		pressShortcut(cv, fyne.KeyReturn)
	})
	h.waitText(c, "You: again")
	h.waitText(c, "second answer")
}

// Tab in the message field moves the focus on (to Send) rather than
// typing a tab.
func TestChatTabLeavesTheField(t *testing.T) {
	h, c, _, _ := chatHarness(t)
	cv := c.win.Canvas()
	h.do(func() {
		cv.Focus(c.entry)
		test.Type(c.entry, "hello")
		pressTab(cv)
		if strings.Contains(c.entry.Text, "\t") {
			t.Errorf("Tab typed a tab into the field: %q", c.entry.Text)
		}
		if cv.Focused() == fyne.Focusable(c.entry) {
			t.Error("Tab left the focus in the message field")
		}
		if cv.Focused() != fyne.Focusable(c.send) {
			t.Errorf("after Tab the focus is on %T, want Send", cv.Focused())
		}
	})
}
