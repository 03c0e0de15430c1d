package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/toolform"
)

// toolArgs is a tool's arguments in two tabs, kept in step: the form made
// from its inputSchema, and the same arguments as JSON. An edit of the
// form writes the JSON; an edit of the JSON fills the form when the form
// can hold it. When it cannot (a property the schema does not list, a
// value of another type), the form says so and Call sends the JSON as
// written: a tester may mean to send what the schema does not allow.
type toolArgs struct {
	changed func()
	field   *toolform.Field // nil when the schema could not be read
	value   *toolform.Value
	probs   []toolform.Problem
	form    *argsForm
	json    *keyEntry
	fit     *widget.Label
	// problems says what keeps the arguments from being sent.
	problems *widget.Label
	tabs     *container.AppTabs
	// fromJSON says that Call sends the JSON tab as written, which the
	// form does not show; jsonErr why that JSON cannot be sent.
	fromJSON bool
	jsonErr  string
	syncing  bool
}

func newToolArgs(changed func()) *toolArgs {
	a := &toolArgs{changed: changed}
	a.form = newArgsForm(a.formChanged)
	a.json = newMultiLineKeyEntry()
	a.json.TextStyle = fyne.TextStyle{Monospace: true}
	a.json.OnChanged = a.jsonChanged
	a.fit = caption("")
	a.fit.Importance = widget.WarningImportance
	a.fit.Hide()
	a.problems = caption("")
	a.problems.Importance = widget.DangerImportance
	return a
}

func (a *toolArgs) buildUI() fyne.CanvasObject {
	a.tabs = container.NewAppTabs(
		container.NewTabItem("Form", container.NewBorder(a.fit, nil, nil, nil, container.NewVScroll(container.NewPadded(a.form.box)))),
		container.NewTabItem("JSON", a.json),
	)
	return a.tabs
}

// setTool shows tl's arguments as the form first fills them (defaults).
func (a *toolArgs) setTool(tl toolcall.Tool) {
	f, err := toolform.Parse(tl.InputSchema)
	a.fromJSON, a.jsonErr, a.field = false, "", f
	a.fit.Hide()
	if err != nil {
		a.field, a.value, a.fromJSON = nil, nil, true
		a.form.show(nil)
		a.form.box.Add(italic("No form: " + err.Error() + ". Write the arguments in the JSON tab."))
		a.setJSON("{}")
		a.jsonChanged("{}")
		a.tabs.SelectIndex(1)
		return
	}
	a.value = toolform.New(f)
	a.form.show(a.value)
	a.tabs.SelectIndex(0)
	a.formChanged()
}

// clear empties the tabs (no tool chosen).
func (a *toolArgs) clear() {
	a.field, a.value, a.probs = nil, nil, nil
	a.form.show(nil)
	a.setJSON("")
	a.problems.SetText("")
}

// formChanged writes the form's arguments into the JSON tab.
func (a *toolArgs) formChanged() {
	if a.value == nil {
		return
	}
	args, probs := a.value.Arguments()
	a.probs, a.fromJSON, a.jsonErr = probs, false, ""
	a.fit.Hide()
	a.setJSON(indentJSON(args))
	a.showProblems()
	a.changed()
}

// jsonChanged fills the form from the JSON tab, where it fits.
func (a *toolArgs) jsonChanged(text string) {
	if a.syncing {
		return
	}
	a.jsonErr = ""
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &obj); err != nil || !strings.HasPrefix(strings.TrimSpace(text), "{") {
		a.jsonErr = "the JSON tab does not hold a JSON object"
	}
	if a.field != nil && a.jsonErr == "" {
		if v, err := toolform.FromJSON(a.field, json.RawMessage(text)); err == nil {
			a.value, a.fromJSON = v, false
			a.form.show(v)
			_, a.probs = v.Arguments()
			a.fit.Hide()
		} else {
			a.fromJSON = true
			a.fit.SetText("The form cannot show the JSON tab's arguments (" + err.Error() + "): Call sends the JSON as written.")
			a.fit.Show()
		}
	}
	if a.field == nil || a.jsonErr != "" {
		a.fromJSON = true
	}
	a.showProblems()
	a.changed()
}

// setJSON writes the JSON tab without reading it back.
func (a *toolArgs) setJSON(text string) {
	a.syncing = true
	a.json.SetText(text)
	a.syncing = false
}

// showProblems says what keeps the arguments from being sent.
func (a *toolArgs) showProblems() {
	var lines []string
	switch {
	case a.fromJSON && a.jsonErr != "":
		lines = append(lines, a.jsonErr)
	case !a.fromJSON:
		for _, p := range a.probs {
			lines = append(lines, p.String())
		}
	}
	a.problems.SetText(strings.Join(lines, "\n"))
}

// ready reports whether the arguments can be sent.
func (a *toolArgs) ready() bool {
	if a.fromJSON {
		return a.jsonErr == ""
	}
	return a.value != nil && len(a.probs) == 0
}

// arguments are what Call sends.
func (a *toolArgs) arguments() (json.RawMessage, bool) {
	if !a.ready() {
		return nil, false
	}
	if a.fromJSON {
		return json.RawMessage(a.json.Text), true
	}
	args, _ := a.value.Arguments()
	return args, true
}

// indentJSON indents JSON to be read, or returns it as it is.
func indentJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
