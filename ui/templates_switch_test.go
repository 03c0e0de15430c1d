package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
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
	// The form as drawn: a real window keeps its renderer, which the test
	// driver may otherwise make again from the form's items.
	var drawn fyne.WidgetRenderer
	h.do(func() { drawn = test.WidgetRenderer(w.form) })
	h.do(func() { w.choose.SetSelectedIndex(1) })
	h.settle()
	// Type as a person would: in the entry the form draws.
	var field *keyEntry
	h.do(func() {
		_ = drawn // held, as a window holds it, while the template switches
		field = drawnEntry(w.form)
	})
	if field == nil {
		t.Fatal("the second template's form draws no field")
	}
	if field != w.fields["name"] {
		t.Error("the form draws the first template's field, not the second's: typing in it changes nothing")
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

// drawnEntry is the last field the form's renderer draws (a window keeps
// the renderer; test.WidgetRenderer returns the one kept).
func drawnEntry(form *widget.Form) *keyEntry {
	var field *keyEntry
	var walk func(objs []fyne.CanvasObject)
	walk = func(objs []fyne.CanvasObject) {
		for _, o := range objs {
			switch x := o.(type) {
			case *keyEntry:
				field = x
			case *fyne.Container:
				walk(x.Objects)
			case fyne.Widget:
				walk(test.WidgetRenderer(x).Objects())
			}
		}
	}
	walk(test.WidgetRenderer(form).Objects())
	return field
}
