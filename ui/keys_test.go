package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// key presses name on whatever has the window's focus, as the window does
// for a key no shortcut takes.
func (h *harness) key(name fyne.KeyName) {
	h.t.Helper()
	h.do(func() {
		ev := &fyne.KeyEvent{Name: name}
		if f := h.app.Window().Canvas().Focused(); f != nil {
			f.TypedKey(ev)
		} else if on := h.app.Window().Canvas().OnTypedKey(); on != nil {
			on(ev)
		}
	})
}

// Down from a template field moves into the suggestions, and Enter there
// takes the suggestion and reads it.
func TestKeysSuggestions(t *testing.T) {
	h := newHarness(t)
	w := h.app.picker.templates
	if len(w.suggestions) < 2 {
		t.Fatalf("%d suggestions on the first screen, want some", len(w.suggestions))
	}
	field := w.fields["id"]
	h.do(func() { h.app.Window().Canvas().Focus(field) })
	h.key(fyne.KeyDown)
	if got := h.app.Window().Canvas().Focused(); got != w.suggestList {
		t.Fatalf("after Down the focus is on %T, want the suggestions", got)
	}
	h.key(fyne.KeyDown) // the second suggestion
	want := w.suggestions[1]
	h.key(fyne.KeyReturn)
	h.settle()
	if field.Text != want {
		t.Errorf("Enter on the second suggestion put %q in the field, want %q", field.Text, want)
	}
	if got := h.app.inspector.uri.Text; !strings.HasSuffix(got, want) {
		t.Errorf("Enter on a suggestion read %q, want the memory %s", got, want)
	}
}

// Down from the resources' search moves into the results, Enter reads the
// one the keys are on, and a search that hides every resource says so.
func TestKeysResources(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("paged", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	r := h.app.picker.resources
	h.do(h.app.picker.focusSearch)
	h.do(func() { test.Type(r.search, "resources/19") })
	h.key(fyne.KeyDown)
	if got := h.app.Window().Canvas().Focused(); got != r.rows {
		t.Fatalf("after Down the focus is on %T, want the results", got)
	}
	h.key(fyne.KeyReturn)
	h.settle()
	if got, want := h.app.inspector.uri.Text, r.all[r.shown[0]].URI; got != want {
		t.Errorf("Enter on the first result read %q, want %s", got, want)
	}
	if r.noMatch.Visible() {
		t.Errorf("with results shown, the search says %q", r.noMatch.Text)
	}
	h.do(func() { r.search.SetText("no-such-resource") })
	if !r.noMatch.Visible() || !strings.Contains(r.noMatch.Text, "No resource matches “no-such-resource”") || !strings.Contains(r.noMatch.Text, "2000") {
		t.Errorf("a search that hides all 2000 resources says %q (shown: %v)", r.noMatch.Text, r.noMatch.Visible())
	}
	h.do(func() { r.search.SetText("") })
	if r.noMatch.Visible() {
		t.Error("the note stays after the search was cleared")
	}
}

// In a dialog, Enter submits and Escape closes, from its field or from the
// window.
func TestKeysDialog(t *testing.T) {
	h := newHarness(t)
	overlay := func() fyne.CanvasObject {
		var top fyne.CanvasObject
		h.do(func() { top = h.app.Window().Canvas().Overlays().Top() })
		return top
	}
	h.do(h.app.conversations.askRename)
	if overlay() == nil {
		t.Fatal("Rename opened no dialog")
	}
	h.key(fyne.KeyEscape)
	if overlay() != nil {
		t.Fatal("Escape in the title field left the dialog open")
	}
	h.do(h.app.conversations.askRename)
	h.do(func() {
		e := h.app.Window().Canvas().Focused().(*keyEntry)
		e.SetText("Renamed by Enter")
	})
	h.key(fyne.KeyReturn)
	h.settle()
	if overlay() != nil || h.app.sh.conv.Title != "Renamed by Enter" {
		t.Errorf("Enter left the dialog open or did not rename: title %q", h.app.sh.conv.Title)
	}
	h.do(h.app.servers.add) // a form of many fields, with its own Save
	h.do(func() { h.app.Window().Canvas().Focus(h.app.servers.form.command) })
	h.key(fyne.KeyEscape)
	if overlay() != nil {
		t.Error("Escape in the server form's field left it open")
	}
	h.do(h.app.ShowShortcuts)
	h.do(func() { h.app.Window().Canvas().Unfocus() })
	h.key(fyne.KeyEscape)
	if overlay() != nil {
		t.Error("Escape with no field focused left the shortcuts open")
	}
}

// The Help menu lists every shortcut the menus give.
func TestHelpListsShortcuts(t *testing.T) {
	h := newHarness(t)
	var help *fyne.MenuItem
	var given []string
	for _, m := range h.app.Window().MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == "Keyboard shortcuts" {
				help = it
			}
			if s, ok := it.Shortcut.(interface{ ShortcutName() string }); ok && it.Shortcut != nil {
				given = append(given, s.ShortcutName())
			}
		}
	}
	if help == nil {
		t.Fatal("no Help › Keyboard shortcuts")
	}
	h.do(help.Action)
	shown := texts(h.app.Window().Canvas().Overlays().Top())
	for _, keys := range []string{"Ctrl+K", "Ctrl+Enter", "Ctrl+T", "Ctrl+Shift+L", "Ctrl+Shift+U", "Ctrl+F", "Down", "Escape"} {
		if !strings.Contains(shown, keys) {
			t.Errorf("the shortcuts do not list %s:\n%s", keys, shown)
		}
	}
	if len(given) != 6 {
		t.Errorf("the menus give %d shortcuts (%v); the list names 6", len(given), given)
	}
}

// Down from the Search memories field moves onto the first result, Down
// and Up move through the results (Up from the first goes back to the
// field), and Enter reads the memory the keys are on.
func TestKeysSearchMemories(t *testing.T) {
	h := newHarness(t)
	s := h.app.picker.byID.search
	h.do(func() { h.app.picker.show(TabByID) })
	h.do(func() { test.Type(s.query, "the") })
	h.do(func() { h.app.Window().Canvas().Focus(s.query) })
	h.key(fyne.KeyReturn)
	h.settle()
	if len(s.rows) < 2 || len(s.rows) != len(s.hits) {
		t.Fatalf("%d result rows for %d hits, want a row a hit and at least 2", len(s.rows), len(s.hits))
	}
	focused := func() fyne.Focusable {
		var f fyne.Focusable
		h.do(func() { f = h.app.Window().Canvas().Focused() })
		return f
	}
	h.key(fyne.KeyDown)
	if got := focused(); got != s.rows[0] {
		t.Fatalf("after Down the focus is on %T, want the first result", got)
	}
	h.key(fyne.KeyDown)
	if got := focused(); got != s.rows[1] {
		t.Fatalf("a second Down put the focus on %T, want the second result", got)
	}
	h.key(fyne.KeyReturn)
	h.settle()
	if got, want := h.app.inspector.uri.Text, s.hits[1].URI; got != want {
		t.Errorf("Enter on the second result read %q, want %s", got, want)
	}
	h.key(fyne.KeyUp)
	h.key(fyne.KeyUp)
	if got := focused(); got != s.query {
		t.Errorf("Up from the first result put the focus on %T, want the search field", got)
	}
}
