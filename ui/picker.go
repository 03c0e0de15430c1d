package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/attache/attache/hostcore"
)

// PickerTab names a way into the picker.
type PickerTab int

// The picker's tabs.
const (
	TabResources PickerTab = iota
	TabTemplates
	TabByID
	TabTools
)

// picker is the centre's upper half: three ways to find something to read
// or attach on the server in use. Enter reads what the tab in front has
// chosen; Ctrl+Enter attaches it.
type picker struct {
	sh     *shell
	loaded func()

	tabs      *container.AppTabs
	resources *resourcesTab
	templates *templateWorkbench
	byID      *byIDTab
	tools     *toolsTab

	// listed counts the catalog listings (resources, templates) finished
	// for the connection in use, so the picker can tell when both are in.
	listed      int
	resourceN   int
	templateN   int
	userChanged bool
	server      string // the server browsed, "" for none
	// unshown are the contents of the tabs not shown yet (see buildUI).
	unshown map[*container.TabItem]fyne.CanvasObject
}

func newPicker(sh *shell, results *toolResultPane, loaded func()) *picker {
	p := &picker{sh: sh, loaded: loaded}
	p.tools = newToolsTab(sh, results)
	p.resources = newResourcesTab(sh, func(n int) { p.resourceN = n; p.listDone() })
	p.templates = newTemplateWorkbench(sh, func(n int) { p.templateN = n; p.listDone() })
	p.byID = newByIDTab(sh)
	return p
}

func (p *picker) buildUI() fyne.CanvasObject {
	// The tabs behind the first go in when first shown: AppTabs asks every
	// tab's content for its least size, which made the first frame build
	// the renderers of three hidden tabs and measure their text.
	p.unshown = map[*container.TabItem]fyne.CanvasObject{}
	later := func(name string, icon fyne.Resource, content fyne.CanvasObject) *container.TabItem {
		item := container.NewTabItemWithIcon(name, icon, container.NewWithoutLayout())
		p.unshown[item] = content
		return item
	}
	p.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Resources", theme.ListIcon(), p.resources.buildUI()),
		later("Templates", theme.DocumentCreateIcon(), p.templates.buildUI()),
		later("Memories", theme.SearchIcon(), p.byID.buildUI()),
		later("Tools", theme.SettingsIcon(), p.tools.buildUI()),
	)
	p.tabs.OnSelected = func(item *container.TabItem) {
		p.fill(item)
		p.userChanged = true
	}
	return p.tabs
}

// fill puts a tab's content in on its first showing.
func (p *picker) fill(item *container.TabItem) {
	content, ok := p.unshown[item]
	if !ok {
		return
	}
	delete(p.unshown, item)
	item.Content = content
	p.tabs.Refresh() // lays the content out in the tab
}

// setConn lists c's catalog (nil: nothing to browse).
func (p *picker) setConn(c *hostcore.Conn) {
	p.listed = 0
	// Another account of the same server lists the same catalog: the tab
	// the person is on stays in front. Another server chooses again.
	server := ""
	if c != nil {
		server = c.Server.Name
	}
	if server != p.server {
		p.userChanged = false
	}
	p.server = server
	p.resources.setConn(c)
	p.templates.setConn(c)
	p.byID.setConn(c)
	p.tools.setConn(c)
}

// listDone is told when one listing finished. When both have, and the
// person has not chosen a tab meanwhile, the resources come to the front,
// or the templates when the server lists no resources (as threengram does:
// its corpus is never enumerated).
func (p *picker) listDone() {
	p.listed++
	if p.listed != 2 {
		return
	}
	if !p.userChanged {
		switch {
		case p.resourceN > 0:
			p.show(TabResources)
		case p.templateN > 0:
			p.show(TabTemplates)
		}
		p.userChanged = false
	}
	if p.loaded != nil {
		p.loaded()
	}
}

// show brings a tab to the front.
func (p *picker) show(tab PickerTab) {
	p.tabs.SelectIndex(int(tab))
}

// current is the tab in front.
func (p *picker) current() PickerTab { return PickerTab(p.tabs.SelectedIndex()) }

// focusSearch brings the resources to the front and puts the cursor in
// their search box (Ctrl+K).
func (p *picker) focusSearch() {
	p.show(TabResources)
	p.sh.win.Canvas().Focus(p.resources.search)
}

// focusTools brings the tools to the front and puts the keyboard in
// their list (Ctrl+T).
func (p *picker) focusTools() {
	p.show(TabTools)
	p.tools.focus()
}

// readCurrent reads what the tab in front has chosen (Enter).
func (p *picker) readCurrent() {
	switch p.current() {
	case TabResources:
		p.resources.read()
	case TabTemplates:
		p.templates.read()
	case TabByID:
		p.byID.read()
	}
}

// attachCurrent attaches what the tab in front has chosen (Ctrl+Enter).
func (p *picker) attachCurrent() {
	switch p.current() {
	case TabResources:
		p.resources.attach()
	case TabTemplates:
		p.templates.attach()
	case TabByID:
		p.byID.attach()
	}
}
