package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Switching the template in the dropdown gives live fields: typing in the
// new template's field updates the preview, enables Read and Attach, and
// Enter reads the URI the values make.
func TestSwitchTemplate(t *testing.T) {
	h := newHarness(t)
	c := h.card("paged")
	h.do(func() { c.accounts.SetSelected(c.accounts.Options[0]) })
	h.settle()
	w := h.app.picker.templates
	h.do(func() { h.app.picker.show(TabTemplates) })
	h.settle()
	if len(w.templates) < 2 {
		t.Fatalf("the paged server lists %d templates, want 2 or more", len(w.templates))
	}
	h.do(func() { test.Type(w.fields["name"], "a") }) // something typed in the first template's field
	h.settle()
	h.do(func() { w.choose.SetSelectedIndex(1) })
	h.settle()
	// Type as a person would: in the entry the form shows.
	var field *keyEntry
	h.do(func() {
		for _, o := range test.LaidOutObjects(w.form) {
			if e, ok := o.(*keyEntry); ok && e.Visible() {
				field = e
			}
		}
	})
	if field == nil {
		t.Fatal("the second template shows no field")
	}
	h.do(func() { test.Type(field, "x7") })
	h.settle()
	h.do(func() {
		if got, want := w.preview.Text, "→ test://paged/t1/x7"; got != want {
			t.Errorf("preview = %q, want %q", got, want)
		}
		if w.readBtn.Disabled() || w.attachBtn.Disabled() {
			t.Error("Read or Attach stays disabled with a complete value")
		}
	})
	h.do(func() { field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) })
	h.settle()
	if got := h.app.inspector.uri.Text; !strings.Contains(got, "test://paged/t1/x7") {
		t.Errorf("Enter read %q, want test://paged/t1/x7", got)
	}
}
