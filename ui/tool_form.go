package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/toolform"
)

// argsForm draws a toolform.Value as widgets, one per field, nested as
// the schema nests: an entry for a string, a number or JSON, a check (or,
// for an optional boolean without a default, a choice of not set, true
// or false), a choice for an enum, a list of items with Add and Remove
// for an array, an indented group for an object. Every edit changes the
// value and calls changed. Used on the main goroutine only.
type argsForm struct {
	value   *toolform.Value
	changed func()
	box     *fyne.Container
	// widgets are the fields' widgets by path ("entities[0].name"), for
	// the tests and for focus.
	widgets map[string]fyne.CanvasObject
}

func newArgsForm(changed func()) *argsForm {
	return &argsForm{changed: changed, box: container.NewVBox(), widgets: map[string]fyne.CanvasObject{}}
}

// show draws v (nil: nothing).
func (f *argsForm) show(v *toolform.Value) {
	f.value = v
	f.rebuild()
}

// rebuild draws the value again, after an item came or went.
func (f *argsForm) rebuild() {
	f.widgets = map[string]fyne.CanvasObject{}
	f.box.RemoveAll()
	if f.value != nil {
		if len(f.value.Props) == 0 {
			f.box.Add(italic("This tool's schema lists no arguments."))
		}
		if why := f.value.Field.Why; why != "" {
			f.box.Add(caption("The schema describes " + why + ": write the arguments in the JSON tab."))
		}
		for _, p := range f.value.Props {
			f.box.Add(f.field(p, p.Field.Name))
		}
	}
	f.box.Refresh()
}

func italic(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Italic, l.Wrapping = true, fyne.TextWrapWord
	return l
}

// field draws one value at path, with its label and what the schema says.
func (f *argsForm) field(v *toolform.Value, path string) fyne.CanvasObject {
	input := f.input(v, path)
	f.widgets[path] = input
	rows := []fyne.CanvasObject{widget.NewLabelWithStyle(fieldLabel(v.Field), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	if about := fieldAbout(v.Field); about != "" {
		rows = append(rows, caption(about))
	}
	rows = append(rows, input)
	return container.NewVBox(rows...)
}

// fieldLabel is a field's name, what it is, and whether it is required.
func fieldLabel(fd *toolform.Field) string {
	label := fd.Label()
	if label == "" {
		label = "item"
	}
	what := string(fd.Kind)
	if fd.Kind == toolform.KindJSON {
		what = "JSON"
	}
	if fd.Required && fd.Name != "" {
		what += ", required"
	}
	return label + " (" + what + ")"
}

// fieldAbout is a field's description, its constraints and why it is
// written as JSON.
func fieldAbout(fd *toolform.Field) string {
	var parts []string
	for _, s := range []string{fd.Description, fd.Hint} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if fd.Nullable {
		parts = append(parts, "may be null (leave it empty to leave it out)")
	}
	if fd.Why != "" {
		parts = append(parts, "written as JSON: the schema describes "+fd.Why)
	}
	return strings.Join(parts, " · ")
}

// input is the widget that edits v.
func (f *argsForm) input(v *toolform.Value, path string) fyne.CanvasObject {
	fd := v.Field
	switch fd.Kind {
	case toolform.KindBoolean:
		return f.boolean(v)
	case toolform.KindEnum:
		return f.enum(v)
	case toolform.KindArray:
		return f.array(v, path)
	case toolform.KindObject:
		box := container.NewVBox()
		for _, p := range v.Props {
			box.Add(f.field(p, path+"."+p.Field.Name))
		}
		return container.NewBorder(nil, nil, widget.NewSeparator(), nil, container.NewPadded(box))
	}
	e := newKeyEntry()
	e.SetText(v.Text)
	e.SetPlaceHolder(placeholder(fd))
	if fd.Kind == toolform.KindJSON {
		e.MultiLine, e.TextStyle = true, fyne.TextStyle{Monospace: true}
		e.SetMinRowsVisible(3)
	}
	e.OnChanged = func(s string) { v.Text = s; f.changed() }
	return e
}

// placeholder says what an entry takes.
func placeholder(fd *toolform.Field) string {
	switch fd.Kind {
	case toolform.KindNumber:
		return "a number"
	case toolform.KindInteger:
		return "a whole number"
	case toolform.KindJSON:
		return "a JSON value"
	}
	if fd.Required {
		return "text"
	}
	return "text (empty: left out)"
}

// notSet is the choice that leaves an optional field out.
const notSet = "(not set)"

// boolean is a check, or a choice of not set, true and false for an
// optional boolean that starts unset.
func (f *argsForm) boolean(v *toolform.Value) fyne.CanvasObject {
	if v.Bool != nil || v.Field.Required {
		c := newCheck("true", func(on bool) { v.Bool = &on; f.changed() })
		c.SetChecked(v.Bool != nil && *v.Bool)
		return c
	}
	s := newSelect([]string{notSet, "true", "false"}, nil)
	s.SetSelected(notSet)
	s.OnChanged = func(choice string) {
		v.Bool = nil
		if choice != notSet {
			on := choice == "true"
			v.Bool = &on
		}
		f.changed()
	}
	return s
}

// enum is a choice among the field's choices, and not set for an optional
// one.
func (f *argsForm) enum(v *toolform.Value) fyne.CanvasObject {
	fd := v.Field
	var options []string
	if !fd.Required {
		options = append(options, notSet)
	}
	for i := range fd.Enum {
		options = append(options, fd.ChoiceText(i))
	}
	first := len(options) - len(fd.Enum)
	s := newSelect(options, nil)
	if v.Choice >= 0 {
		s.SetSelectedIndex(first + v.Choice)
	} else if !fd.Required {
		s.SetSelected(notSet)
	}
	s.OnChanged = func(string) { v.Choice = s.SelectedIndex() - first; f.changed() }
	return s
}

// array is the items, each with Remove, and Add.
func (f *argsForm) array(v *toolform.Value, path string) fyne.CanvasObject {
	box := container.NewVBox()
	for i, it := range v.Items {
		i := i
		remove := newButton("", theme.DeleteIcon(), func() { v.RemoveItem(i); f.rebuild(); f.changed() })
		remove.Importance = widget.LowImportance
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		box.Add(container.NewBorder(nil, nil, widget.NewLabel(fmt.Sprintf("%d.", i+1)), remove, f.itemInput(it, itemPath)))
	}
	add := newButton("Add "+itemWord(v.Field), theme.ContentAddIcon(), func() { v.AddItem(); f.rebuild(); f.changed() })
	f.widgets[path+"+"] = add
	if len(v.Items) == 0 {
		box.Add(italic("No items."))
	}
	box.Add(container.NewHBox(add))
	return box
}

// itemInput is one item's widget: its input, an object's fields grouped.
func (f *argsForm) itemInput(it *toolform.Value, path string) fyne.CanvasObject {
	in := f.input(it, path)
	f.widgets[path] = in
	return in
}

// itemWord names an array's item for its Add button.
func itemWord(fd *toolform.Field) string {
	if fd.Items != nil && fd.Items.Kind == toolform.KindObject {
		return "an item (object)"
	}
	if fd.Items != nil {
		return "an item (" + string(fd.Items.Kind) + ")"
	}
	return "an item"
}
