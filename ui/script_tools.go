package ui

import "fmt"

// ChooseTool brings the Tools tab to the front and chooses the listed tool
// name, which shows its form.
func (a *App) ChooseTool(name string) error {
	t := a.picker.tools
	a.picker.show(TabTools)
	for i, tl := range t.tools {
		if tl.Name == name {
			t.list.Select(i)
			return nil
		}
	}
	return fmt.Errorf("%s lists no tool %q", a.sh.conn.Server.Name, name)
}

// SetToolJSON writes the chosen tool's arguments into its JSON tab, as
// typing there does: the form follows where it can hold them.
func (a *App) SetToolJSON(args string) {
	t := a.picker.tools
	t.args.tabs.SelectIndex(1)
	t.args.json.SetText(args)
}

// ShowToolForm brings the chosen tool's form tab to the front.
func (a *App) ShowToolForm() { a.picker.tools.args.tabs.SelectIndex(0) }

// CallTool taps Call for the chosen tool.
func (a *App) CallTool() error {
	t := a.picker.tools
	if t.callBtn.Disabled() {
		return fmt.Errorf("Call is disabled: %s", t.args.problems.Text)
	}
	t.callTool()
	return nil
}

// ShowToolEntry shows entry i of the tool result in the viewer.
func (a *App) ShowToolEntry(i int) { a.results.list.Select(i) }
