package ui

import (
	"context"
	"errors"
	"github.com/attache/attache/hostcore/form"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
)

func elicitFields() []form.Field {
	one, ten := 1.0, 10.0
	return []form.Field{
		{Name: "name", Type: "string", Default: "Ada", Required: true},
		{Name: "count", Type: "integer", Minimum: &one, Maximum: &ten, Default: int64(3)},
		{Name: "team", Type: "string", Options: []form.Option{{Value: "eng", Title: "Engineering"}, {Value: "ops"}}, Default: "ops"},
		{Name: "tags", Type: "array", Options: []form.Option{{Value: "a"}, {Value: "b"}}, Default: []string{"b"}},
		{Name: "draft", Type: "boolean", Default: true},
		{Name: "note", Type: "string"},
	}
}

// TestElicitFormDefaults: the form is built with every default filled in,
// accepting it as offered sends them, and a value that does not fit, or a
// required field left empty, is named instead of sent.
func TestElicitFormDefaults(t *testing.T) {
	test.NewTempApp(t)
	f := newElicitForm(hostcore.ElicitRequest{Server: "s", Message: "Fill this", Fields: elicitFields()})
	ans, err := f.answer()
	want := map[string]any{"name": "Ada", "count": int64(3), "team": "ops", "tags": []string{"b"}, "draft": true}
	if diff := cmp.Diff(want, ans.Content); err != nil || ans.Action != hostcore.ElicitAccept || diff != "" {
		t.Fatalf("the form as offered: %v, %v (-want +got):\n%s", ans.Action, err, diff)
	}
	count := f.focusables[1].(*keyEntry)
	count.SetText("11")
	if _, err := f.answer(); err == nil || err.Error() != "count must be from 1 to 10" {
		t.Errorf("count 11: %v; want it named with its range", err)
	}
	count.SetText("4")
	f.focusables[0].(*keyEntry).SetText("")
	if _, err := f.answer(); err == nil || err.Error() != "name is required" {
		t.Errorf("an empty required name: %v", err)
	}
	f.focusables[0].(*keyEntry).SetText("Grace")
	ans, _ = f.answer()
	if ans.Content["name"] != "Grace" || ans.Content["count"] != int64(4) {
		t.Errorf("typed values: %v", ans.Content)
	}
}

// TestElicitDialog: the dialog comes up for the form and goes away, with
// a cancel, when no one waits for the answer any more.
func TestElicitDialog(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.app.Elicit(ctx, hostcore.ElicitRequest{Server: "s", Message: "Fill this", Fields: elicitFields()})
		done <- err
	}()
	overlay := func() bool {
		var up bool
		h.do(func() { up = h.app.Window().Canvas().Overlays().Top() != nil })
		return up
	}
	h.waitFor("the elicitation dialog", overlay)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Elicit = %v; want canceled", err)
	}
	h.waitFor("the dialog to close", func() bool { return !overlay() })
}
